/**
 * What an attempt whose outcome was lost (its lease expired) can have spent, and so is charged. docs/budgets.md tells
 * which kinds are bounded and why; what an attempt reserves before it starts is plan/budget-fit.ts's `upfrontOf`.
 */
import { upfrontOf, type Amount } from '../plan/budget-fit';
import type { Reservation } from './types';

/** Kinds that spend nothing a budget counts: a lost attempt of theirs spent nothing. */
const SPENDS_NOTHING: ReadonlySet<string> = new Set(['sleep', 'noop']);

/**
 * Kinds whose spend the worker counts as it happens (each usage line, response, model call or CLI turn, through the
 * attempt's live budget) and asks the run for before it passes what the attempt holds: what the run granted the
 * attempt, extensions included, bounds what it spent. An agent reserves each model call's `maxTokens` before it
 * calls and gives back what the answer did not use, so its grant is its journaled usage plus the call in flight.
 */
const COUNTED_LIVE: ReadonlySet<string> = new Set(['shell', 'http', 'llm', 'agent', 'agent-cli']);

/**
 * What a lost attempt is charged: at most what it holds (its reservation and every extension the run granted it),
 * or null when nothing bounds what it spent (a custom kind or an `activity` task, which spend without asking the
 * run): then its usage is unknown.
 */
export function lostAttemptBound(kind: string, reservation: Reservation): Reservation | null {
  if (SPENDS_NOTHING.has(kind)) return { tokens: 0, usd: 0 };
  if (COUNTED_LIVE.has(kind)) return { tokens: reservation.tokens, usd: reservation.usd };
  return null;
}

/**
 * The keys of the tasks that hold a fair share of a limit the plan sets (no amount of their own for it: `upfrontOf`,
 * team/budget.ts `sizeOf`) and, lost, are charged all they hold (`lostAttemptBound`): one that starts while its
 * teammates are busy can hold, and be charged, all that remains.
 */
export function fairShareTasksChargedWhenLost(plan: {
  budget: { maxTokens?: number; maxUsd?: number };
  tasks: ReadonlyArray<{ key: string; estimate?: Amount; executor: { kind: string; [field: string]: unknown } }>;
}): string[] {
  const { maxTokens, maxUsd } = plan.budget;
  return plan.tasks
    .filter((task) => {
      if (!COUNTED_LIVE.has(task.executor.kind)) return false;
      const amount = upfrontOf(task)?.amount ?? {};
      return (
        (maxTokens !== undefined && amount.tokens === undefined) || (maxUsd !== undefined && amount.usd === undefined)
      );
    })
    .map((task) => task.key);
}
