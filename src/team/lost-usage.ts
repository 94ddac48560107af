/**
 * What an attempt whose outcome was lost (its lease expired) can have spent, and so is charged. docs/budgets.md tells
 * which kinds are bounded and why; what an attempt reserves before it starts is plan/budget-fit.ts's `upfrontOf`.
 */
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

/** Whether a lost attempt of `kind` is charged all it holds (`lostAttemptBound`): a fair share too, if it held one. */
export function chargedAllItHoldsWhenLost(kind: string): boolean {
  return COUNTED_LIVE.has(kind);
}
