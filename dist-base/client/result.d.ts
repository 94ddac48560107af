import type { RunResult } from '../contract';
/**
 * The result of a run that closed as Canceled (`temporal workflow cancel`): the workflow attaches
 * its RunResult as the cancellation's details, which `handle.result()` throws as a
 * `WorkflowFailedError` caused by a `CancelledFailure`. Null for any other error.
 */
export declare function cancelledRunResult(err: unknown): RunResult | null;
/** A run's result whether it closed Completed or Canceled (then `result.cancellation` says so). */
export declare function teamRunResult(handle: {
    result(): Promise<RunResult>;
}): Promise<RunResult>;
