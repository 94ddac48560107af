type JsonSchema = Record<string, unknown>;
/**
 * The plan's JSON Schema (draft 2020-12), as a user writes a plan (defaults optional), for editors:
 * `# yaml-language-server: $schema=<path>/plan.schema.json` at the top of a `*.team.yaml`.
 * An executor is one of the built-in kinds, each with its own fields, or a custom kind (any other
 * name, any fields), which the worker that enables it checks. `$defs` holds one task entry
 * (`TaskSpec`) and the `addTasks` update's payload (`AddTasksRequest`, docs/dynamic-tasks.md).
 */
export declare function planJsonSchema(): JsonSchema;
export {};
