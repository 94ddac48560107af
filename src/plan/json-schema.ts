import { z } from 'zod';
import { BUILTIN_EXECUTOR_KINDS, BUILTIN_EXECUTOR_SCHEMAS, TeamPlanSchema } from './schema';
import { AddTasksRequestSchema } from './requests/add-tasks';

type JsonSchema = Record<string, unknown>;

/**
 * The plan's JSON Schema (draft 2020-12), as a user writes a plan (defaults optional), for editors:
 * `# yaml-language-server: $schema=<path>/plan.schema.json` at the top of a `*.team.yaml`.
 * An executor is one of the built-in kinds, each with its own fields, or a custom kind (any other
 * name, any fields), which the worker that enables it checks. `$defs` holds one task entry
 * (`TaskSpec`) and the `addTasks` update's payload (`AddTasksRequest`, docs/dynamic-tasks.md).
 */
export function planJsonSchema(): JsonSchema {
  const toJson = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const plan = toJson(TeamPlanSchema);
  const builtins = Object.values(BUILTIN_EXECUTOR_SCHEMAS).map((schema) => {
    const { $schema: _ignored, ...rest } = toJson(schema);
    return rest;
  });
  const custom = {
    type: 'object',
    description: 'a custom executor kind, enabled on a worker with createWorker({ executors })',
    properties: {
      kind: {
        type: 'string',
        pattern: '^[A-Za-z0-9._-]{1,64}$',
        not: { enum: [...BUILTIN_EXECUTOR_KINDS] },
      },
    },
    required: ['kind'],
  };
  const task = (plan.properties as Record<string, JsonSchema>).tasks.items as JsonSchema;
  (task.properties as Record<string, JsonSchema>).executor = { oneOf: [...builtins, custom] };
  const { $schema: _schema, ...addTasks } = toJson(AddTasksRequestSchema);
  const addTasksItems = (addTasks.properties as Record<string, JsonSchema>).tasks;
  addTasksItems.items = { $ref: '#/$defs/TaskSpec' };
  return {
    $schema: plan.$schema,
    $id: 'https://teamrun.dev/plan.schema.json',
    title: 'teamrun plan (TeamPlan)',
    ...plan,
    $defs: { ...(plan.$defs as JsonSchema | undefined), TaskSpec: task, AddTasksRequest: addTasks },
  };
}
