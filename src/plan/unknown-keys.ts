import { nearest } from './graph';
import {
  BUILTIN_EXECUTOR_SCHEMAS,
  BudgetSchema,
  RetrySchema,
  TaskSchema,
  TeamPlanSchema,
  isBuiltinExecutorKind,
} from './schema';
import type { PlanProblem } from './problem';

/** The fields of the objects a plan nests, by the name they are found under; read from the schemas. */
const FIELDS: Record<string, ReadonlyArray<string>> = {
  plan: Object.keys(TeamPlanSchema.shape),
  task: Object.keys(TaskSchema.shape),
  budget: Object.keys(BudgetSchema.shape),
  retry: Object.keys(RetrySchema.shape),
  lease: ['ttlMs', 'heartbeatEveryMs'],
  estimate: ['tokens', 'usd'],
  governance: ['operators'],
  hooks: ['teammateIdle'],
  teammateIdle: ['executor'],
};

/** What a plan wrote at `path` (leniently: anything missing is undefined). */
function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let value = input;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/** The fields the object at `path` may have: by the name it is under, an executor by its kind. */
function fieldsAt(input: unknown, path: ReadonlyArray<PropertyKey>): ReadonlyArray<string> {
  const last = path.at(-1);
  if (last === undefined) return FIELDS.plan;
  if (typeof last === 'number') return path.at(-2) === 'tasks' ? FIELDS.task : [];
  if (last === 'executor') {
    const kind = (valueAt(input, path) as { kind?: unknown } | undefined)?.kind;
    if (typeof kind !== 'string' || !isBuiltinExecutorKind(kind)) return [];
    return Object.keys(BUILTIN_EXECUTOR_SCHEMAS[kind].shape);
  }
  return Object.hasOwn(FIELDS, last) ? FIELDS[last as string] : [];
}

/**
 * A field the schema does not know, one problem per field at its own path, with a did-you-mean
 * from the fields of the same object (`tasks[0].depends_on` -> `dependsOn`).
 */
export function unknownFieldProblems(
  input: unknown,
  path: ReadonlyArray<PropertyKey>,
  keys: ReadonlyArray<string>,
  formatPath: (path: ReadonlyArray<PropertyKey>) => string,
): PlanProblem[] {
  const known = fieldsAt(input, path);
  return keys.map((key) => {
    const guess = nearest(key, known);
    return {
      path: formatPath([...path, key]),
      code: 'unknown_field',
      message: `unknown field${guess ? ` (did you mean "${guess}"?)` : ''}`,
    };
  });
}
