/**
 * The tasks that hold a fair share of their run's budget while they run, and that a lost attempt of is charged all of
 * (docs/budgets.md, *A lost attempt*): `teamrun start`, `validate`, `schedule create` and MCP's `validate_plan` and
 * `start_run` point them out, a team task's child plan included. Without this, a user finds out when a worker dies:
 * two lost `shell` attempts that spent 150 tokens each were charged 5,000 each, which was all of their run's
 * maxTokens, and the run stopped `budget_stopped` with every task skipped.
 */
import { TeamPlanSchema, type TeamPlan } from '../plan/schema';
import { Budget } from '../team/budget';
import { childPlan } from '../team/child-team';
import { fairShareTasksChargedWhenLost } from '../team/lost-usage';
import { count, usd } from '../format';

type PlanPart = Pick<TeamPlan, 'tasks' | 'teammates' | 'budget'>;

/**
 * The note for `plan` (the CLI prints it on stderr after `note: `, MCP answers it in `notes`), or null when no task
 * holds a fair share of a limit it is charged all of when lost.
 */
export function fairShareNote(plan: PlanPart): string | null {
  const { maxTokens, maxUsd } = plan.budget;
  const keys = fairShareTasksChargedWhenLost(plan);
  const nested = childKeys(plan, '');
  if (keys.length === 0 && nested.length === 0) return null;
  const parts: string[] = [];
  if (keys.length) {
    // What the first of them reserves of a fresh budget, with every teammate free (the run's own rule); one that
    // starts while the others are busy holds more, up to all that remains.
    const share = Budget.create({ maxTokens, maxUsd }).sizeOf(undefined, plan.teammates);
    const each = [
      ...(maxTokens !== undefined ? [`${count(share.tokens)} tokens`] : []),
      ...(maxUsd !== undefined ? [usd(share.usd)] : []),
    ].join(' and ');
    const limits = [
      ...(maxTokens !== undefined ? [`maxTokens ${count(maxTokens)}`] : []),
      ...(maxUsd !== undefined ? [`maxUsd ${maxUsd}`] : []),
    ].join(', ');
    parts.push(
      `${keys.length} task(s) with no estimate for a limit the plan sets hold a fair share of the budget while they ` +
        `run (${named(keys)}): what remains over the free teammates when one starts, ${each} on a fresh budget ` +
        `(${limits} over ${plan.teammates} teammate(s)), all that remains when it starts alone`,
    );
  }
  if (nested.length) {
    parts.push(
      `${nested.length} task(s) of team tasks' child plans (${named(nested)}) hold a fair share of their child ` +
        `run's budget (its carve, or the limits its plan sets) the same way`,
    );
  }
  return (
    `${parts.join('; ')}. An attempt lost with its worker (kill -9, OOM) is charged all it holds, so one lost ` +
    `can use the budget up. Give each an \`estimate\` of what it spends ({ tokens: 0, usd: 0 } for one that spends ` +
    `nothing a budget counts; docs/budgets.md)`
  );
}

/**
 * The same tasks in the child plans of `plan`'s team tasks, at any depth, as `<team key>/<key>`. A child's limits are
 * the run's rule (team/child-team.ts `childPlan`): its own, at most the carve, the carve where it sets none; only
 * whether a limit is set matters here, so the parent's limit stands in for the carve's amount.
 */
function childKeys(plan: PlanPart, prefix: string): string[] {
  const keys: string[] = [];
  const carve = { tokens: plan.budget.maxTokens ?? null, usd: plan.budget.maxUsd ?? null, tasks: null, wallMs: null };
  for (const task of plan.tasks) {
    if (task.executor.kind !== 'team') continue;
    // Checked whole by validatePlan before any note: a child plan that does not parse has no note to give.
    const parsed = TeamPlanSchema.safeParse(childPlan(task.executor.plan as Record<string, unknown>, carve));
    if (!parsed.success) continue;
    const at = `${prefix}${task.key}/`;
    keys.push(...fairShareTasksChargedWhenLost(parsed.data).map((key) => at + key));
    keys.push(...childKeys(parsed.data, at));
  }
  return keys;
}

/** Up to MAX_NAMED keys, then how many more. */
function named(keys: string[]): string {
  return keys.length > MAX_NAMED
    ? `${keys.slice(0, MAX_NAMED).join(', ')} and ${keys.length - MAX_NAMED} more`
    : keys.join(', ');
}

/** Task keys the note names before it counts the rest. */
const MAX_NAMED = 5;

/** What MCP answers in `notes` beside a plan it accepts (validate_plan, start_run): the fair-share note, if any. */
export function planNotes(plan: PlanPart): string[] {
  const note = fairShareNote(plan);
  return note ? [note] : [];
}
