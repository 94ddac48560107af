import type { AttemptOutcome, Claim } from '../team/types';
/**
 * Schedules an `activity` task's attempt: the activity type the plan names, on its own task
 * queue (never teamrun's worker), with the same id, retry and cancellation as `runTask`.
 * Resolves to the outcome its result means; rejects as `runTask` does, for `outcomeOf`.
 */
export declare function runForeignActivity(claim: Claim, workflowId: string, summary: string): Promise<AttemptOutcome>;
