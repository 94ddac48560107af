import { CancelledFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import type { RunResult } from '../contract';

/**
 * The result of a run that closed as Canceled (`temporal workflow cancel`): the workflow attaches
 * its RunResult as the cancellation's details, which `handle.result()` throws as a
 * `WorkflowFailedError` caused by a `CancelledFailure`. Null for any other error.
 */
export function cancelledRunResult(err: unknown): RunResult | null {
  if (!(err instanceof WorkflowFailedError) || !(err.cause instanceof CancelledFailure)) return null;
  const details = err.cause.details?.[0];
  return details && typeof details === 'object' && 'status' in details ? (details as RunResult) : null;
}

/** A run's result whether it closed Completed or Canceled (then `result.cancellation` says so). */
export async function teamRunResult(handle: { result(): Promise<RunResult> }): Promise<RunResult> {
  try {
    return await handle.result();
  } catch (err) {
    const result = cancelledRunResult(err);
    if (result) return result;
    throw err;
  }
}
