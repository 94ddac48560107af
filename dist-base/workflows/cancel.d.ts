import type { RunResult } from './messages';
/**
 * Closes the workflow as Canceled with the run's result as the cancellation's details, so
 * `temporal workflow describe`, the Web UI's list filters and colours say Canceled while a client's
 * `result()` still gets the result (a `CancelledFailure` whose `details[0]` is the RunResult).
 *
 * Why not just throw a `CancelledFailure`: the TypeScript SDK (1.24) answers a thrown cancellation
 * with an empty `CancelWorkflowExecution` command and drops its details, although the command
 * (core and server) carries them; it has no public way to send them either. So the command is
 * pushed through the SDK adapter, with the details filled in; the returned promise never settles,
 * as the workflow has completed. Deterministic: the same command on every replay.
 */
export declare function closeAsCanceled(result: RunResult): Promise<never>;
