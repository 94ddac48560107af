/**
 * What a task reserves before its attempt starts (`upfrontOf`: the claim in team/claims.ts reserves it), and the
 * check that it fits its run's budget. A task that reserves more than its run's whole budget can never start: no
 * reservation, no claim (docs/budgets.md), and a run's limits only tighten. The run would find out only when nothing
 * else is left to do, and stop `budget_stopped` with the task skipped. `teamrun validate`, `start`, `schedule
 * create` and MCP `start_run` say so first (`planChecks`). The workflow does not run the check: histories recorded
 * with such plans replay as they ran.
 */
import { AGENT_LIMITS } from './agent';
import type { PlanProblem } from './problem';

interface TaskNode {
  key: string;
  estimate?: Amount;
  executor: { kind: string; [field: string]: unknown };
}

/** An amount of tokens and dollars a task reserves; a dimension left out is a fair share of what remains. */
export interface Amount {
  tokens?: number;
  usd?: number;
}

/**
 * What a task reserves before its attempt starts (team/claims.ts reserves it): its `estimate`; else a team task's
 * plan limits (its carve); else an agent's first model call's grant (its `maxTokens`, and no dollars: each call asks
 * for its own before it is made); else nothing said, a fair share. `source` says which, for the messages.
 */
export function upfrontOf(task: TaskNode): { amount: Amount; source: 'estimate' | 'team' | 'agent' } | null {
  if (task.estimate) return { amount: task.estimate, source: 'estimate' };
  const { executor } = task;
  if (executor.kind === 'team') {
    const budget = (executor.plan as { budget?: { maxTokens?: unknown; maxUsd?: unknown } } | undefined)?.budget;
    const amount = {
      ...(typeof budget?.maxTokens === 'number' ? { tokens: budget.maxTokens } : {}),
      ...(typeof budget?.maxUsd === 'number' ? { usd: budget.maxUsd } : {}),
    };
    return Object.keys(amount).length ? { amount, source: 'team' } : null;
  }
  if (executor.kind === 'agent') {
    const tokens = typeof executor.maxTokens === 'number' ? executor.maxTokens : AGENT_LIMITS.defaultMaxTokens;
    return { amount: { tokens, usd: 0 }, source: 'agent' };
  }
  return null;
}

/** Where each source is written in the plan, and how a message names it. */
const SOURCES = {
  estimate: { from: 'its estimate', tokens: 'estimate.tokens', usd: 'estimate.usd' },
  team: {
    from: "its team plan's budget",
    tokens: 'executor.plan.budget.maxTokens',
    usd: 'executor.plan.budget.maxUsd',
  },
  agent: { from: "one model call's maxTokens", tokens: 'executor.maxTokens', usd: 'executor.maxTokens' },
} as const;

/** Every task whose upfront reservation is past the plan's own `budget.maxTokens` or `budget.maxUsd`. */
export function checkBudgetFits(plan: {
  budget?: { maxTokens?: number; maxUsd?: number };
  tasks: ReadonlyArray<TaskNode>;
}): PlanProblem[] {
  const { maxTokens, maxUsd } = plan.budget ?? {};
  if (maxTokens === undefined && maxUsd === undefined) return [];
  const problems: PlanProblem[] = [];
  plan.tasks.forEach((task, i) => {
    const upfront = upfrontOf(task);
    if (!upfront) return;
    const { tokens, usd } = upfront.amount;
    const source = SOURCES[upfront.source];
    const never = `: it could never start (a run's limits only tighten). Lower it, or raise the run's limit`;
    if (maxTokens !== undefined && tokens !== undefined && tokens > maxTokens) {
      problems.push({
        path: `tasks[${i}].${source.tokens}`,
        code: 'over_budget',
        message:
          `task "${task.key}" reserves ${tokens} tokens (${source.from}) before it starts, more ` +
          `than the run's budget.maxTokens ${maxTokens}${never}`,
      });
    }
    if (maxUsd !== undefined && usd !== undefined && usd > maxUsd) {
      problems.push({
        path: `tasks[${i}].${source.usd}`,
        code: 'over_budget',
        message:
          `task "${task.key}" reserves $${usd} (${source.from}) before it starts, more than the run's ` +
          `budget.maxUsd $${maxUsd}${never}`,
      });
    }
  });
  return problems;
}
