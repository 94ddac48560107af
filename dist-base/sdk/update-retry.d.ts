/**
 * How long a refused update keeps trying: 6 tries, waiting 0.25-0.5, 0.5-1, 1-2, 2-4 and 4-8 s between them. A
 * handover takes the server one more workflow task, a few milliseconds to a second. The rest covers a busy worker:
 * a workflow task the server timed out (10 s) leaves the workflow refusing updates, with the same status ("Workflow
 * Task in failed state"), until its next task completes (seen: a ledger's first task took 15 s on two loaded cores).
 */
export declare const UPDATE_RETRY: {
    readonly tries: 6;
    readonly firstWaitMs: 500;
};
/** True for the refusal an update meets when it reaches a run whose workflow task the server failed. */
export declare function refusedAtHandover(err: unknown): boolean;
/**
 * Sends an update with `send`, again while it is refused at a handover, up to `UPDATE_RETRY.tries`
 * times. Every try carries the same update id: should an earlier try have reached the run after
 * all, the same run answers with that update's outcome instead of applying it twice. The request
 * itself is the caller's to make idempotent (its requestId or decisionId), and is sent unchanged.
 */
export declare function retryUpdate<T>(send: (updateId: string) => Promise<T>, updateId?: string, wait?: (ms: number) => Promise<void>): Promise<T>;
