/**
 * The tasks that hold a fair share of their run's budget while they run, and that a lost attempt of is charged all of
 * (docs/budgets.md, *A lost attempt*): `teamrun start` and `validate` point them out. Without this, a user finds out
 * when a worker dies: two lost `shell` attempts that spent 150 tokens each were charged 5,000 each, which was all of
 * their run's maxTokens, and the run stopped `budget_stopped` with every task skipped.
 */
import type { TeamPlan } from '../plan/schema';
import { Budget } from '../team/budget';
import { fairShareTasksChargedWhenLost } from '../team/lost-usage';
import { count, usd } from '../format';

/** The note for `plan`, or null when no task holds a fair share of a limit it is charged all of when lost. */
export function fairShareNote(plan: Pick<TeamPlan, 'tasks' | 'teammates' | 'budget'>): string | null {
  const { maxTokens, maxUsd } = plan.budget;
  const keys = fairShareTasksChargedWhenLost(plan);
  if (keys.length === 0) return null;
  // What the first of them reserves of a fresh budget, with every teammate free (the run's own rule); one that starts
  // while the others are busy holds more, up to all that remains.
  const share = Budget.create({ maxTokens, maxUsd }).sizeOf(undefined, plan.teammates);
  const each = [
    ...(maxTokens !== undefined ? [`${count(share.tokens)} tokens`] : []),
    ...(maxUsd !== undefined ? [usd(share.usd)] : []),
  ].join(' and ');
  const limits = [
    ...(maxTokens !== undefined ? [`maxTokens ${count(maxTokens)}`] : []),
    ...(maxUsd !== undefined ? [`maxUsd ${maxUsd}`] : []),
  ].join(', ');
  const named =
    keys.length > MAX_NAMED
      ? `${keys.slice(0, MAX_NAMED).join(', ')} and ${keys.length - MAX_NAMED} more`
      : keys.join(', ');
  return (
    `note: ${keys.length} task(s) with no estimate for a limit the plan sets hold a fair share of the budget while ` +
    `they run (${named}): what remains over the free teammates when one starts, ${each} on a fresh budget ` +
    `(${limits} over ${plan.teammates} teammate(s)), all that remains when it starts alone. An attempt lost with ` +
    `its worker (kill -9, OOM) is charged all it holds, so one lost can use the budget up. Give each an ` +
    `\`estimate\` of what it spends ({ tokens: 0, usd: 0 } for one that spends nothing a budget counts; ` +
    `docs/budgets.md)`
  );
}

/** Task keys the note names before it counts the rest. */
const MAX_NAMED = 5;
