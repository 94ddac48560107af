/**
 * Completes the workflow as Canceled with `details` (converted by the workflow's payload
 * converter) in the `CancelWorkflowExecution` command, the command the SDK itself pushes for a
 * thrown cancellation, but without details (1.24 has no public way to give them). Nothing the
 * workflow does after this call is sent: the workflow has completed.
 */
export declare function completeAsCanceled(details: unknown): void;
