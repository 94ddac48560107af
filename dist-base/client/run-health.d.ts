import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
/** A run whose workflow task keeps failing: nothing in it moves and no query answers. */
export interface FailingWorkflowTask {
    /** The pending workflow task's attempt (2 or more). */
    attempt: number;
    /** The failure Temporal recorded for it, e.g. `BadSearchAttributes: Namespace x has no mapping ...`. */
    message: string;
    /** teamrun's search attributes the namespace lacks, when that is the cause. */
    missingSearchAttributes: string[];
    /** The `temporal` commands that fix it, naming the address in use. */
    fix: string[];
}
/**
 * Why the run's workflow task fails, read from its latest WorkflowTaskFailed event; null while
 * its workflow task is on its first attempt (or none is pending). A workflow task failed for
 * missing search attributes (a run started with plain `temporal workflow start` on a namespace
 * nobody set up) is only visible here and in the worker's log.
 */
export declare function failingWorkflowTask(client: Client, description: WorkflowExecutionDescription, address: string): Promise<FailingWorkflowTask | null>;
/** What `status` and `doctor` say of a failing workflow task, the fix commands indented. */
export declare function failingWorkflowTaskText(workflowId: string, namespace: string, failing: FailingWorkflowTask): string;
/** One attempt Temporal holds for the run: scheduled on a queue, or started by a worker. */
export interface PendingAttempt {
    activityId: string;
    /** `scheduled` (no worker took it yet), `started`, `cancel requested`, ... */
    state: string;
    taskQueue: string | null;
    scheduledAt: number | null;
    /** For a `scheduled` attempt: how many workers poll its queue for activities (null: unknown). */
    pollers: number | null;
}
/**
 * The run's pending attempts as Temporal describes them. The run itself cannot tell an attempt
 * scheduled on a queue nobody polls from one running (it sees neither start), so `status` asks here.
 */
export declare function pendingAttempts(client: Client, description: WorkflowExecutionDescription): Promise<PendingAttempt[]>;
/** A task queue a run needs polled, and whether anyone polls it. */
export interface RunQueue {
    name: string;
    /** `workflow` for the run's own queue (its workflow tasks and teamrun's attempts), `activity` otherwise. */
    role: 'workflow' | 'activity';
    pollers: number | null;
}
/**
 * The queues a run names: its own task queue (workflow pollers), the `activityQueues` of the plan
 * it started with, and the queues of its pending attempts (activity pollers).
 */
export declare function runQueues(client: Client, description: WorkflowExecutionDescription): Promise<RunQueue[]>;
