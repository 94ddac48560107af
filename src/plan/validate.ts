import { TeamPlanSchema, type TeamPlan } from './schema';
import { findCycle, nearest } from './graph';

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
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((issue) => ({
        path: formatPath(issue.path),
        code: 'schema',
        message: issue.message,
      })),
    };
  }
  const problems = checkGraph(parsed.data);
  return problems.length ? { ok: false, problems } : { ok: true, plan: parsed.data };
}

function checkGraph(plan: TeamPlan): PlanProblem[] {
  const problems: PlanProblem[] = [];
  if (plan.tasks.length === 0) {
    problems.push({ path: 'tasks', code: 'empty', message: 'a plan needs at least one task' });
    return problems;
  }
  const firstIndex = new Map<string, number>();
  plan.tasks.forEach((task, i) => {
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
  plan.tasks.forEach((task, i) => {
    const seen = new Set<string>();
    task.dependsOn.forEach((dep, j) => {
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
      }
      seen.add(dep);
    });
  });
  if (problems.length === 0) {
    const cycle = findCycle(plan.tasks);
    if (cycle) {
      const at = firstIndex.get(cycle[0]) ?? 0;
      problems.push({
        path: `tasks[${at}].dependsOn`,
        code: 'cycle',
        message: `dependency cycle: ${cycle.join(' -> ')}`,
      });
    }
  }
  return problems;
}
