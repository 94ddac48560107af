import type { Client } from '@temporalio/client';
import type { AdjudicationRecord } from '../contract';
/**
 * Open runs that wait on a human: the run has nothing left to do but adjudications, or some of
 * its tasks wait for a decision (an approval step) while others still run.
 */
export declare const AWAITING_ADJUDICATION = "(TeamRunStatus=\"AwaitingAdjudication\" OR TeamRunPendingAdjudications > 0) AND ExecutionStatus=\"Running\"";
/** One task waiting for a decision. */
export interface PendingTask {
    key: string;
    code: AdjudicationRecord['code'];
    reason: string | null;
    actor: string | null;
    fencingToken: number;
    requestedAt: number;
    ageMs: number;
}
/** One run of the queue, with its pending tasks (or why they could not be read). */
export interface QueuedRun {
    workflowId: string;
    runId: string;
    team: string | null;
    startedAt: string;
    /** `TeamRunPendingAdjudications` as visibility last saw it. */
    pendingCount: number | null;
    pending: PendingTask[];
    /** Set when the run did not answer the `adjudications` query (no worker on its queue). */
    error: string | null;
}
/**
 * Every open run awaiting adjudication (a visibility query on the search attributes), with each
 * pending task read from the run's `adjudications` query. Oldest request first.
 */
export declare function adjudicationQueue(client: Client, options?: {
    team?: string;
    now?: number;
}): Promise<QueuedRun[]>;
