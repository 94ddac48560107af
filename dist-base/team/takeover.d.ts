/**
 * Human takeover of a running attempt (`interruptTask`) and the coordinator's abort of the whole
 * run (`abortRun`, or Temporal's own cancellation), each checked in the order CONTRACT.md gives
 * and answered with a verdict. Stops attempts through the leases; what a stopped attempt's
 * outcome then does to its task is settlement's.
 */
import type { AbortVerdict, InterruptVerdict } from '../contract';
import type { RunContext } from './context';
/** Validates an interruptTask payload for the update validator (shape and governance only). */
export declare function validateInterrupt(run: RunContext, payload: unknown): void;
export declare function interrupt(run: RunContext, payload: unknown, now: number): InterruptVerdict;
export declare function validateAbort(run: RunContext, payload: unknown): void;
/** Coordinator abort: nothing new starts, active attempts are stopped, the rest skipped. */
export declare function abort(run: RunContext, payload: unknown, now: number): AbortVerdict;
/**
 * Temporal cancelled the workflow (`temporal workflow cancel`, the UI's button): an abort that
 * Temporal's own authorization already allowed. With `awaitAdjudication` the run then waits for
 * its adjudications like any aborted run; either way it closes as Canceled, not Completed.
 */
export declare function cancelRequested(run: RunContext, now: number): void;
