/**
 * The `addTasks` request's schema and bounds: tasks a running task (or a person) adds to the
 * graph. Parsing only; whether they may join the run is src/team/additions.ts's rule.
 */
import { z } from 'zod';
/** Bounds on one `addTasks` request (docs/dynamic-tasks.md). */
export declare const ADD_TASKS_LIMITS: {
    /** Tasks in one request; the run as a whole stays within PLAN_LIMITS.maxTasks. */
    readonly maxTasks: 1000;
    /** A parent chain longer than this is refused whatever `budget.maxDepth` says. */
    readonly maxDepth: 100;
};
/**
 * The `addTasks` update, and what a `::teamrun-tasks::` line carries (`{"tasks":[...]}`): new
 * tasks, validated against the running graph exactly as a plan's are.
 */
export declare const AddTasksRequestSchema: z.ZodObject<{
    tasks: z.ZodArray<z.ZodObject<{
        key: z.ZodString;
        title: z.ZodOptional<z.ZodString>;
        dependsOn: z.ZodDefault<z.ZodArray<z.ZodString>>;
        priority: z.ZodDefault<z.ZodEnum<{
            high: "high";
            low: "low";
            normal: "normal";
        }>>;
        scope: z.ZodDefault<z.ZodArray<z.ZodString>>;
        estimate: z.ZodOptional<z.ZodObject<{
            tokens: z.ZodOptional<z.ZodNumber>;
            usd: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strict>>;
        retry: z.ZodOptional<z.ZodObject<{
            maxAttempts: z.ZodOptional<z.ZodNumber>;
            backoffMs: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strict>>;
        lease: z.ZodOptional<z.ZodObject<{
            ttlMs: z.ZodNumber;
            heartbeatEveryMs: z.ZodOptional<z.ZodNumber>;
        }, z.core.$strict>>;
        onLeaseLost: z.ZodDefault<z.ZodEnum<{
            adjudicate: "adjudicate";
            retry: "retry";
        }>>;
        allowSpawn: z.ZodOptional<z.ZodBoolean>;
        executor: z.ZodObject<{
            kind: z.ZodString;
        }, z.core.$catchall<z.ZodUnknown>>;
    }, z.core.$strict>>;
    parent: z.ZodOptional<z.ZodString>;
    fencingToken: z.ZodOptional<z.ZodUnion<readonly [z.ZodNumber, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>]>>;
    requestId: z.ZodString;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type AddTasksRequest = z.infer<typeof AddTasksRequestSchema>;
export type AddTasksRequestInput = z.input<typeof AddTasksRequestSchema>;
