import { PLAN_LIMITS, TeamPlanSchema, type TaskSpec, type TeamPlan } from './schema';
import { findCycle, formatCycle, nearest } from './graph';

/** One thing wrong with a plan, with where it is (`tasks[3].dependsOn[0]`). */
export interface PlanProblem {
  path: string;
  code: string;
  message: string;
}

export type PlanValidation = { ok: true; plan: TeamPlan } | { ok: false; problems: PlanProblem[] };

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(plan)';
}

export function formatProblems(problems: PlanProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('\n');
}

/** Parses a plan and checks its graph; returns every problem found, not only the first. */
export function validatePlan(input: unknown): PlanValidation {
  const parsed = TeamPlanSchema.safeParse(input);
  if (parsed.success) {
    const problems = [...checkGraph(parsed.data.tasks), ...checkActivityTasks(parsed.data, parsed.data.tasks)];
    return problems.length ? { ok: false, problems } : { ok: true, plan: parsed.data };
  }
  const problems: PlanProblem[] = parsed.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    code: 'schema',
    message: issue.message,
  }));
  // A typo in one task's fields should not hide a typo in another's dependencies.
  const nodes = graphNodes(input);
  if (nodes) problems.push(...checkGraph(nodes));
  return { ok: false, problems };
}

/** A task as far as the graph checks need it; `key` is null when the task has no usable key. */
interface GraphNode {
  key: string | null;
  dependsOn: ReadonlyArray<unknown>;
}

/** The graph of a plan that failed its schema, read leniently; null when there is no task list to read. */
function graphNodes(input: unknown): GraphNode[] | null {
  const tasks = typeof input === 'object' && input !== null ? (input as { tasks?: unknown }).tasks : undefined;
  if (!Array.isArray(tasks) || tasks.length > PLAN_LIMITS.maxTasks) return null;
  return tasks.map((task: unknown) => {
    const fields = typeof task === 'object' && task !== null ? (task as { key?: unknown; dependsOn?: unknown }) : {};
    return {
      key: typeof fields.key === 'string' ? fields.key : null,
      dependsOn: Array.isArray(fields.dependsOn) ? fields.dependsOn : [],
    };
  });
}

function checkGraph(tasks: ReadonlyArray<GraphNode>): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (tasks.length === 0) {
    problems.push({ path: 'tasks', code: 'empty', message: 'a plan needs at least one task' });
    return problems;
  }
  const firstIndex = new Map<string, number>();
  tasks.forEach((task, i) => {
    if (task.key === null) return;
    const earlier = firstIndex.get(task.key);
    if (earlier !== undefined) {
      problems.push({
        path: `tasks[${i}].key`,
        code: 'duplicate_key',
        message: `duplicate task key "${task.key}" (first used at tasks[${earlier}])`,
      });
    } else {
      firstIndex.set(task.key, i);
    }
  });
  const keys = [...firstIndex.keys()];
  // The graph the cycle search walks: first definitions only, self-dependencies reported on their own.
  const edges = new Map<string, string[]>();
  tasks.forEach((task, i) => {
    const seen = new Set<string>();
    const deps: string[] = [];
    task.dependsOn.forEach((dep, j) => {
      if (typeof dep !== 'string') return;
      const path = `tasks[${i}].dependsOn[${j}]`;
      if (dep === task.key) {
        problems.push({ path, code: 'self_dependency', message: `task "${task.key}" depends on itself` });
      } else if (!firstIndex.has(dep)) {
        const guess = nearest(dep, keys);
        problems.push({
          path,
          code: 'unknown_dependency',
          message: `unknown task "${dep}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
        });
      } else if (seen.has(dep)) {
        problems.push({ path, code: 'duplicate_dependency', message: `"${dep}" is listed twice` });
      } else {
        deps.push(dep);
      }
      seen.add(dep);
    });
    if (task.key !== null && firstIndex.get(task.key) === i) edges.set(task.key, deps);
  });
  const cycle = findCycle([...edges].map(([key, dependsOn]) => ({ key, dependsOn })));
  if (cycle) {
    problems.push({
      path: `tasks[${firstIndex.get(cycle[0]) ?? 0}].dependsOn`,
      code: 'cycle',
      message: `dependency cycle: ${formatCycle(cycle)}`,
    });
  }
  return problems;
}

/**
 * Governance of `activity` tasks: no worker of teamrun's guards a foreign task queue, so the run
 * itself allows only the queues its plan lists in `activityQueues`.
 */
export function checkActivityTasks(
  plan: Pick<TeamPlan, 'activityQueues' | 'budget'>,
  tasks: ReadonlyArray<TaskSpec>,
  pathOf: (i: number) => string = (i) => `tasks[${i}]`,
): PlanProblem[] {
  const allowed = new Set(plan.activityQueues ?? []);
  const problems: PlanProblem[] = [];
  tasks.forEach((task, i) => {
    if (task.executor.kind !== 'activity') return;
    const queue = task.executor.taskQueue as string;
    if (!allowed.has(queue)) {
      const guess = nearest(queue, [...allowed]);
      problems.push({
        path: `${pathOf(i)}.executor.taskQueue`,
        code: 'activity_queue_not_allowed',
        message:
          `task queue "${queue}" is not in the plan's activityQueues` +
          (allowed.size ? ` (${[...allowed].map((q) => `"${q}"`).join(', ')})` : ' (none listed)') +
          (guess ? `; did you mean "${guess}"?` : ''),
      });
    }
    // A shared ledger's slot is renewed by teamrun's own worker while the attempt runs; a foreign worker cannot.
    if (plan.budget.ledger !== undefined) {
      problems.push({
        path: `${pathOf(i)}.executor`,
        code: 'activity_with_ledger',
        message: `an activity task cannot run under a shared ledger ("${plan.budget.ledger}"): its worker cannot renew the ledger slot`,
      });
    }
  });
  return problems;
}
