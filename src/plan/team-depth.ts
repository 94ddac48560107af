/**
 * A plan's `team` tasks (docs/teams.md): each one's inline plan is validated as any plan, one level deeper, and
 * stamped with that level (`teamDepth`) and the tree's bound (`maxTeamDepth`, never looser than its parent's), so
 * the child run knows where it stands and refuses to nest deeper on its own.
 */
import type { PlanProblem } from './problem';
import { TEAM_DEPTH_DEFAULT } from './team';

interface TeamNode {
  teamDepth?: number;
  maxTeamDepth?: number;
  parent?: unknown;
  budget?: { ledger?: string };
  tasks: ReadonlyArray<{ executor: { kind: string; [field: string]: unknown } }>;
}

type Validate = (input: unknown) => { ok: true } | { ok: false; problems: PlanProblem[] };

/** The level and the bound a child of `plan` runs with. */
export function childDepth(plan: Pick<TeamNode, 'teamDepth' | 'maxTeamDepth'>): { depth: number; max: number } {
  return { depth: (plan.teamDepth ?? 0) + 1, max: plan.maxTeamDepth ?? TEAM_DEPTH_DEFAULT };
}

/**
 * Checks (and stamps, in place) every `team` task's plan. `validate` is validatePlan, passed in so this module does
 * not import it: it recurses through it, one level at a time.
 */
export function checkTeamTasks(plan: TeamNode, validate: Validate): PlanProblem[] {
  const problems: PlanProblem[] = [];
  // Only a parent run sets `parent`, as it starts the child (docs/teams.md): a root plan naming one is refused.
  if (plan.parent !== undefined && !plan.teamDepth) {
    problems.push({
      path: 'parent',
      code: 'parent_not_allowed',
      message: 'parent is set by a parent run as it starts a child team; a root plan cannot name one',
    });
  }
  const { depth, max } = childDepth(plan);
  plan.tasks.forEach((task, i) => {
    if (task.executor.kind !== 'team') return;
    const path = `tasks[${i}].executor.plan`;
    if (depth > max) {
      problems.push({
        path,
        code: 'team_too_deep',
        message: `a team task at level ${depth - 1} would start a run at level ${depth}, past maxTeamDepth ${max}`,
      });
      return;
    }
    // A child's `parent` is its parent run's to stamp as it starts it, never the plan's.
    const { parent: _theirs, ...child } = task.executor.plan as Record<string, unknown>;
    const own = typeof child.maxTeamDepth === 'number' ? child.maxTeamDepth : max;
    const ledger = childLedger(plan.budget?.ledger, child.budget);
    if ('problem' in ledger) {
      problems.push({ path: `${path}.budget.ledger`, code: 'team_ledger_differs', message: ledger.problem });
      return;
    }
    const stamped = { ...child, ...ledger.plan, teamDepth: depth, maxTeamDepth: Math.min(own, max) };
    const checked = validate(stamped);
    if (!checked.ok) {
      for (const p of checked.problems) problems.push({ ...p, path: `${path}.${p.path}` });
      return;
    }
    task.executor.plan = stamped;
  });
  return problems;
}

/**
 * A child runs on its parent's shared ledger (docs/teams.md): its plan gets the parent's `budget.ledger` where it names
 * none, and one naming another ledger is refused, so that no team task takes its work out of its run's ledger.
 */
export function childLedger(
  ledger: string | undefined,
  budget: unknown,
): { plan: { budget?: Record<string, unknown> } } | { problem: string } {
  if (ledger === undefined) return { plan: {} };
  const own = (typeof budget === 'object' && budget !== null ? budget : {}) as Record<string, unknown>;
  if (own.ledger !== undefined && own.ledger !== ledger) {
    return {
      problem:
        `the team task's plan names ledger ${JSON.stringify(own.ledger)}, its run spends from ledger "${ledger}": ` +
        "a child runs on its parent's ledger (leave budget.ledger out, or name the same one)",
    };
  }
  return { plan: { budget: { ...own, ledger } } };
}
