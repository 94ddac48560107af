/**
 * The packed form of a plan, as a run's continue-as-new snapshot carries it (src/team/snapshot.ts
 * packs the task states beside it), and as the plan's size bound counts it (validate.ts). Pure
 * and lossless.
 */
import { TaskSchema, type ExecutorSpec, type TaskSpec, type TeamPlan } from './schema';

/** A plan with its executors in a table and each task spec a row (see `PackedTaskSpec`). */
export type PackedPlan = Omit<TeamPlan, 'tasks'> & { executors: ExecutorSpec[]; tasks: PackedTaskSpec[] };

/** `[key, executor, dependsOn, rest]`: executor indexes `plan.executors`, dependsOn holds plan indices. */
export type PackedTaskSpec = [string, number, number[]?, Partial<TaskSpec>?];

/** The task fields the schema fills in when a plan leaves them out (`dependsOn: []`, `priority: 'normal'`, ...). */
const TASK_DEFAULTS: Record<string, unknown> = (() => {
  const {
    key: _key,
    executor: _executor,
    dependsOn: _dependsOn,
    ...defaults
  } = TaskSchema.parse({
    key: 'k',
    executor: { kind: 'noop' },
  });
  return defaults;
})();

const SPEC_ROW_FIELDS = new Set(['key', 'executor', 'dependsOn']);

/** Equal values, or equal as JSON (the defaults compared against are plain data). */
export const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** A plan as a snapshot carries it: executors in a table, task specs as rows without their defaults. */
export function packPlan(plan: TeamPlan): PackedPlan {
  const index = new Map(plan.tasks.map((spec, i) => [spec.key, i]));
  const executors: ExecutorSpec[] = [];
  const executorIndex = new Map<string, number>();
  const specs = plan.tasks.map((spec): PackedTaskSpec => {
    const json = JSON.stringify(spec.executor);
    let e = executorIndex.get(json);
    if (e === undefined) {
      e = executors.push(spec.executor) - 1;
      executorIndex.set(json, e);
    }
    const specRest: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(spec)) {
      if (SPEC_ROW_FIELDS.has(field) || value === undefined) continue;
      if (Object.hasOwn(TASK_DEFAULTS, field) && sameJson(value, TASK_DEFAULTS[field])) continue;
      specRest[field] = value;
    }
    const deps = spec.dependsOn.map((dep) => index.get(dep)!);
    if (Object.keys(specRest).length > 0) return [spec.key, e, deps, specRest];
    return deps.length > 0 ? [spec.key, e, deps] : [spec.key, e];
  });
  return { ...plan, executors, tasks: specs };
}

/** The plan a packed one was made from, each task spec with its schema defaults filled back in. */
export function unpackPlan(packed: PackedPlan): TeamPlan {
  const { executors, tasks: rows, ...planRest } = packed;
  const keys = rows.map((row) => row[0]);
  const specs = rows.map(([key, e, deps, specRest]) => {
    const spec = { key, dependsOn: deps ? deps.map((d) => keys[d]) : [], executor: executors[e] } as TaskSpec;
    for (const field in TASK_DEFAULTS) {
      const value = TASK_DEFAULTS[field];
      (spec as Record<string, unknown>)[field] = Array.isArray(value) ? [...value] : value;
    }
    return specRest ? Object.assign(spec, specRest) : spec;
  });
  return { ...planRest, tasks: specs };
}
