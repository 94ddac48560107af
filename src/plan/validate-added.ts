import { packPlan } from './packed';
import { utf8Bytes } from './bytes';
import { KeyIndex, findCycle, formatCycle } from './graph';
import { PLAN_LIMITS, type TaskSpec, type TeamPlan } from './schema';
import { normalizeScope } from './scope';
import { resolveRoles } from './roles';
import { checkActivityTasks, type PlanProblem } from './validate';

const ADD_TEAM_REFUSED = 'a team task cannot be added to a running run yet: put it in the plan (docs/teams.md)';

/** The running graph as the checks of added tasks need it. */
export interface RunningGraph {
  /** Is there a task with this key in the run (any status)? */
  has(key: string): boolean;
  /** Tasks in the run now. */
  readonly size: number;
  /** Every key in the run, for a did-you-mean (read only when a dependency is unknown). */
  keys(): Iterable<string>;
}

/**
 * Checks tasks to add to a running run exactly as a plan's tasks are checked, against the run's
 * graph: keys unique across the run and the batch, every dependency in the run or the batch, no
 * self or repeated dependency, no cycle, scopes inside the workspace (normalised in place, as a
 * plan's are), activity queues the plan allows, and the run's size within the plan's bounds (its
 * task count, and what it packs to when it continues as new). Paths are the request's
 * (`tasks[2].dependsOn[0]`).
 *
 * A cycle can only lie inside the batch: tasks already in the run never depend on a new one (their
 * dependencies are fixed and were all known), so a dependency on a settled task never closes one.
 */
export function validateAddedTasks(tasks: ReadonlyArray<TaskSpec>, graph: RunningGraph, plan: TeamPlan): PlanProblem[] {
  // Roles first, as a plan's are: the checks below see the agent tasks whole.
  const problems: PlanProblem[] = resolveRoles(tasks, plan.agents);
  if (graph.size + tasks.length > PLAN_LIMITS.maxTasks) {
    problems.push({
      path: 'tasks',
      code: 'too_many_tasks',
      message:
        `the run has ${graph.size} tasks; ${tasks.length} more would ` +
        `pass the bound of ${PLAN_LIMITS.maxTasks} tasks in one run`,
    });
  }
  const batch = new Map<string, number>();
  tasks.forEach((task, i) => {
    const earlier = batch.get(task.key);
    if (graph.has(task.key)) {
      problems.push({
        path: `tasks[${i}].key`,
        code: 'duplicate_key',
        message: `duplicate task key "${task.key}" (already in the run)`,
      });
    } else if (earlier !== undefined) {
      problems.push({
        path: `tasks[${i}].key`,
        code: 'duplicate_key',
        message: `duplicate task key "${task.key}" (first used at tasks[${earlier}])`,
      });
    } else {
      batch.set(task.key, i);
    }
  });
  // Did-you-mean over the run and the request, bounded as a plan's is (built only if a dependency is unknown).
  const known = new KeyIndex(
    (function* () {
      yield* batch.keys();
      yield* graph.keys();
    })(),
  );
  const edges: Array<{ key: string; dependsOn: string[] }> = [];
  tasks.forEach((task, i) => {
    const seen = new Set<string>();
    const inBatch: string[] = [];
    task.dependsOn.forEach((dep, j) => {
      const path = `tasks[${i}].dependsOn[${j}]`;
      if (dep === task.key) {
        problems.push({ path, code: 'self_dependency', message: `task "${task.key}" depends on itself` });
      } else if (seen.has(dep)) {
        problems.push({ path, code: 'duplicate_dependency', message: `"${dep}" is listed twice` });
      } else if (batch.has(dep)) {
        inBatch.push(dep);
      } else if (!graph.has(dep)) {
        const guess = known.nearest(dep);
        problems.push({
          path,
          code: 'unknown_dependency',
          message:
            `unknown task "${dep}": not in the run nor in this ` +
            `request${guess ? ` (did you mean "${guess}"?)` : ''}`,
        });
      }
      seen.add(dep);
    });
    if (batch.get(task.key) === i) edges.push({ key: task.key, dependsOn: inBatch });
  });
  const cycle = findCycle(edges);
  if (cycle) {
    problems.push({
      path: `tasks[${batch.get(cycle[0]) ?? 0}].dependsOn`,
      code: 'cycle',
      message: `dependency cycle: ${formatCycle(cycle)}`,
    });
  }
  tasks.forEach((task, i) => {
    task.scope.forEach((scope, j) => {
      const check = normalizeScope(scope);
      if (check.ok) task.scope[j] = check.scope;
      else problems.push({ path: `tasks[${i}].scope[${j}]`, code: 'invalid_scope', message: check.message });
    });
  });
  problems.push(...checkActivityTasks(plan, tasks));
  // A team task's plan is carved and stamped with its level when the run's plan is validated: not yet when added.
  tasks.forEach((task, i) => {
    if (task.executor.kind === 'team')
      problems.push({ path: `tasks[${i}].executor.kind`, code: 'team_not_addable', message: ADD_TEAM_REFUSED });
  });
  if (problems.length === 0) problems.push(...checkPackedSize(plan, tasks));
  return problems;
}

/**
 * The run's plan with the new tasks must still pack within the
 * bound a plan is held to (PLAN_LIMITS.maxPackedPlanBytes).
 */
function checkPackedSize(plan: TeamPlan, tasks: ReadonlyArray<TaskSpec>): PlanProblem[] {
  const bytes = utf8Bytes(JSON.stringify(packPlan({ ...plan, tasks: [...plan.tasks, ...tasks] })));
  if (bytes <= PLAN_LIMITS.maxPackedPlanBytes) return [];
  return [
    {
      path: 'tasks',
      code: 'plan_too_large',
      message:
        `with these tasks the run's plan packs to ${bytes} bytes, over ` +
        `the ${PLAN_LIMITS.maxPackedPlanBytes}-byte bound on what a run carries when ` +
        `it continues as new; add smaller tasks (share executors) or start another run`,
    },
  ];
}
