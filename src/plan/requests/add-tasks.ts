/**
 * The `addTasks` request's schema and bounds: tasks a running task (or a person) adds to the
 * graph. Parsing only; whether they may join the run is src/team/additions.ts's rule.
 */
import { z } from 'zod';
import { TaskSchema } from '../schema';

/** Bounds on one `addTasks` request (docs/dynamic-tasks.md). */
export const ADD_TASKS_LIMITS = {
  /** Tasks in one request; the run as a whole stays within PLAN_LIMITS.maxTasks. */
  maxTasks: 1_000,
  /** A parent chain longer than this is refused whatever `budget.maxDepth` says. */
  maxDepth: 100,
} as const;

/**
 * The `addTasks` update, and what a `::teamrun-tasks::` line carries (`{"tasks":[...]}`): new
 * tasks, validated against the running graph exactly as a plan's are.
 */
export const AddTasksRequestSchema = z
  .object({
    tasks: z
      .array(TaskSchema)
      .min(1, 'give at least one task')
      .max(ADD_TASKS_LIMITS.maxTasks, `at most ${ADD_TASKS_LIMITS.maxTasks} tasks in one request`),
    /** The task adding them (its fencingToken then proves the attempt is current). */
    parent: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'parent must be a task key')
      .optional(),
    fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
    requestId: z.string().min(1).max(200),
    actor: z.string().min(1).max(200).optional(),
  })
  .strict();
export type AddTasksRequest = z.infer<typeof AddTasksRequestSchema>;
export type AddTasksRequestInput = z.input<typeof AddTasksRequestSchema>;
