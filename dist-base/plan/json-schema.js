"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.planJsonSchema = planJsonSchema;
const zod_1 = require("zod");
const schema_1 = require("./schema");
const add_tasks_1 = require("./requests/add-tasks");
/**
 * The plan's JSON Schema (draft 2020-12), as a user writes a plan (defaults optional), for editors:
 * `# yaml-language-server: $schema=<path>/plan.schema.json` at the top of a `*.team.yaml`.
 * An executor is one of the built-in kinds, each with its own fields, or a custom kind (any other
 * name, any fields), which the worker that enables it checks. `$defs` holds one task entry
 * (`TaskSpec`) and the `addTasks` update's payload (`AddTasksRequest`, docs/dynamic-tasks.md).
 */
function planJsonSchema() {
    const toJson = (schema) => zod_1.z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    const plan = toJson(schema_1.TeamPlanSchema);
    const builtins = Object.values(schema_1.BUILTIN_EXECUTOR_SCHEMAS).map((schema) => {
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
                not: { enum: [...schema_1.BUILTIN_EXECUTOR_KINDS] },
            },
        },
        required: ['kind'],
    };
    const task = plan.properties.tasks.items;
    task.properties.executor = { oneOf: [...builtins, custom] };
    const { $schema: _schema, ...addTasks } = toJson(add_tasks_1.AddTasksRequestSchema);
    const addTasksItems = addTasks.properties.tasks;
    addTasksItems.items = { $ref: '#/$defs/TaskSpec' };
    return {
        $schema: plan.$schema,
        $id: 'https://teamrun.dev/plan.schema.json',
        title: 'teamrun plan (TeamPlan)',
        ...plan,
        $defs: { ...plan.$defs, TaskSpec: task, AddTasksRequest: addTasks },
    };
}
