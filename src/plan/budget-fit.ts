/**
 * A task that reserves more before it starts than its run's whole budget can never start: no reservation, no claim
 * (docs/budgets.md), and a run's limits only tighten. The run would find out only when nothing else is left to do,
 * and stop `budget_stopped` with the task skipped. `teamrun validate` and `teamrun start` say so first. The
 * workflow does not run this check: histories recorded with such plans replay as they ran.
 */
import { AGENT_LIMITS } from './agent';
import type { PlanProblem } from './problem';

interface TaskNode {
  key: string;
  estimate?: { tokens?: number; usd?: number };
  executor: { kind: string; [field: string]: unknown };
}

/** What a task reserves before its attempt starts, where it comes from, and the field that says it. */
interface Upfront {
  tokens?: number;
  usd?: number;
  from: string;
  path: { tokens: string; usd: string };
}

function upfrontOf(task: TaskNode, i: number): Upfront | null {
  if (task.estimate) {
    const at = `tasks[${i}].estimate`;
    return { ...task.estimate, from: 'its estimate', path: { tokens: `${at}.tokens`, usd: `${at}.usd` } };
  }
  const { executor } = task;
  if (executor.kind === 'team') {
    // A team task reserves its plan's own limits (team/child-team.ts `teamEstimate`).
    const budget = (executor.plan as { budget?: { maxTokens?: unknown; maxUsd?: unknown } } | undefined)?.budget;
    const at = `tasks[${i}].executor.plan.budget`;
    return {
      ...(typeof budget?.maxTokens === 'number' ? { tokens: budget.maxTokens } : {}),
      ...(typeof budget?.maxUsd === 'number' ? { usd: budget.maxUsd } : {}),
      from: "its team plan's budget",
      path: { tokens: `${at}.maxTokens`, usd: `${at}.maxUsd` },
    };
  }
  if (executor.kind === 'agent') {
    // An agent reserves its first model call's maxTokens (team/lost-usage.ts `firstCallGrant`).
    const tokens = typeof executor.maxTokens === 'number' ? executor.maxTokens : AGENT_LIMITS.defaultMaxTokens;
    const at = `tasks[${i}].executor.maxTokens`;
    return { tokens, from: "one model call's maxTokens", path: { tokens: at, usd: at } };
  }
  return null;
}

/** Every task whose upfront reservation is past the plan's own `budget.maxTokens` or `budget.maxUsd`. */
export function checkBudgetFits(plan: {
  budget?: { maxTokens?: number; maxUsd?: number };
  tasks: ReadonlyArray<TaskNode>;
}): PlanProblem[] {
  const { maxTokens, maxUsd } = plan.budget ?? {};
  if (maxTokens === undefined && maxUsd === undefined) return [];
  const problems: PlanProblem[] = [];
  plan.tasks.forEach((task, i) => {
    const upfront = upfrontOf(task, i);
    if (!upfront) return;
    const never = `: it could never start (a run's limits only tighten). Lower it, or raise the run's limit`;
    if (maxTokens !== undefined && upfront.tokens !== undefined && upfront.tokens > maxTokens) {
      problems.push({
        path: upfront.path.tokens,
        code: 'over_budget',
        message:
          `task "${task.key}" reserves ${upfront.tokens} tokens (${upfront.from}) before it starts, more ` +
          `than the run's budget.maxTokens ${maxTokens}${never}`,
      });
    }
    if (maxUsd !== undefined && upfront.usd !== undefined && upfront.usd > maxUsd) {
      problems.push({
        path: upfront.path.usd,
        code: 'over_budget',
        message:
          `task "${task.key}" reserves $${upfront.usd} (${upfront.from}) before it starts, more than the run's ` +
          `budget.maxUsd $${maxUsd}${never}`,
      });
    }
  });
  return problems;
}
