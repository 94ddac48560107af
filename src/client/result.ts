import { CancelledFailure } from '@temporalio/common';
import { WorkflowFailedError, type Client } from '@temporalio/client';
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

/**
 * Why a control found no open run with this id: it has ended (its status, from its result, else how Temporal
 * closed it, and when), or null when there is no such run (or it runs: the control met it as it closed).
 */
export async function endedRunText(client: Client, workflowId: string): Promise<string | null> {
  const handle = client.workflow.getHandle<() => Promise<RunResult>>(workflowId);
  const described = await handle.describe().catch(() => null);
  if (!described || described.status.name === 'RUNNING') return null;
  // A run that failed or was terminated has no result to read: Temporal's status says how it closed.
  const status = await teamRunResult(handle).then(
    (result) => result.status,
    () => described.status.name.toLowerCase(),
  );
  const at = described.closeTime ? ` at ${described.closeTime.toISOString()}` : '';
  return `run "${workflowId}" has ended: ${status}${at}; an ended run takes no more controls`;
}
