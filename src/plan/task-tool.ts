/**
 * What a model is told a task is: the JSON Schema of one task (every built-in executor kind with its fields, from
 * the zod schemas, as `teamrun schema` writes it), bounded, for `teamrun__add_tasks` and the MCP door's tools; and
 * the problems of tasks a model sent, each with its path and a did-you-mean, as the tool's error.
 */
import { z } from 'zod';
import { planJsonSchema } from './json-schema';
import { ADD_TASKS_LIMITS } from './requests/add-tasks';
import { TaskSchema } from './schema';
import { unknownFieldProblems } from './unknown-keys';
import { formatPath } from './validate';
import type { PlanProblem } from './problem';

/** The bound on a task's JSON Schema as a tool carries it, in bytes (sent with every model call). */
export const TASK_TOOL_SCHEMA_BYTES = 12 * 1024;
/** The bound on a whole plan's JSON Schema as a tool carries it (MCP `start_run`), in bytes. */
export const PLAN_TOOL_SCHEMA_BYTES = 16 * 1024;

type JsonSchema = Record<string, unknown>;
let cached: JsonSchema | undefined;

/** One task's JSON Schema (draft 2020-12), without the fields a model never needs to send (`default`s kept). */
export function taskJsonSchema(): JsonSchema {
  cached ??= withoutTeamKind((planJsonSchema().$defs as Record<string, JsonSchema>).TaskSpec);
  return cached;
}

/** A task a run adds may not be a `team` task yet (validate-added.ts): the tools do not offer the kind. */
function withoutTeamKind(task: JsonSchema): JsonSchema {
  const properties = task.properties as Record<string, { oneOf: JsonSchema[] }>;
  const oneOf = properties.executor.oneOf.filter(
    (e) => (e.properties as { kind?: { const?: unknown } } | undefined)?.kind?.const !== 'team',
  );
  return { ...task, properties: { ...properties, executor: { oneOf } } };
}

/** The `teamrun__add_tasks` tool's parameters: `{ tasks: [TaskSpec, ...] }`. */
export function addTasksToolSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      tasks: {
        type: 'array',
        minItems: 1,
        maxItems: ADD_TASKS_LIMITS.maxTasks,
        description: 'the tasks to add; each runs once its dependsOn have succeeded',
        items: taskJsonSchema(),
      },
    },
    required: ['tasks'],
    additionalProperties: false,
  };
}

const TasksSchema = z.object({ tasks: z.array(TaskSchema).min(1).max(ADD_TASKS_LIMITS.maxTasks) }).strict();

/** Every problem of tasks as a model sent them (shape only; the run checks the graph), `tasks[1].executor.comand`. */
export function taskProblems(tasks: unknown): PlanProblem[] {
  const input = { tasks };
  const parsed = TasksSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? unknownFieldProblems(input, issue.path, issue.keys, formatPath)
      : [{ path: formatPath(issue.path), code: 'schema', message: issue.message }],
  );
}

/** A whole plan's JSON Schema as a tool carries it (MCP `start_run`): its tasks by one `$defs` entry. */
export function planToolSchema(): JsonSchema {
  const { $schema: _dialect, $id: _id, title: _title, $defs, ...plan } = planJsonSchema();
  const properties = { ...(plan.properties as Record<string, JsonSchema>) };
  properties.tasks = { ...properties.tasks, items: { $ref: '#/$defs/TaskSpec' } };
  return { ...plan, properties, $defs: { TaskSpec: (($defs ?? {}) as Record<string, JsonSchema>).TaskSpec } };
}
