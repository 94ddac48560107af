"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AddTasksRequestSchema = exports.ADD_TASKS_LIMITS = void 0;
/**
 * The `addTasks` request's schema and bounds: tasks a running task (or a person) adds to the
 * graph. Parsing only; whether they may join the run is src/team/additions.ts's rule.
 */
const zod_1 = require("zod");
const schema_1 = require("../schema");
/** Bounds on one `addTasks` request (docs/dynamic-tasks.md). */
exports.ADD_TASKS_LIMITS = {
    /** Tasks in one request; the run as a whole stays within PLAN_LIMITS.maxTasks. */
    maxTasks: 1_000,
    /** A parent chain longer than this is refused whatever `budget.maxDepth` says. */
    maxDepth: 100,
};
/**
 * The `addTasks` update, and what a `::teamrun-tasks::` line carries (`{"tasks":[...]}`): new
 * tasks, validated against the running graph exactly as a plan's are.
 */
exports.AddTasksRequestSchema = zod_1.z
    .object({
    tasks: zod_1.z
        .array(schema_1.TaskSchema)
        .min(1, 'give at least one task')
        .max(exports.ADD_TASKS_LIMITS.maxTasks, `at most ${exports.ADD_TASKS_LIMITS.maxTasks} tasks in one request`),
    /** The task adding them (its fencingToken then proves the attempt is current). */
    parent: zod_1.z
        .string()
        .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'parent must be a task key')
        .optional(),
    fencingToken: zod_1.z.union([zod_1.z.number().int(), zod_1.z.string().regex(/^\d+$/).transform(Number)]).optional(),
    requestId: zod_1.z.string().min(1).max(200),
    actor: zod_1.z.string().min(1).max(200).optional(),
})
    .strict();
