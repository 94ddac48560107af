/**
 * Owns the run-wide bounds on state held in memory and in the snapshot, and `clip`. Constants
 * only: the parts that hold state enforce them; message bounds stay in src/plan/requests/control.ts and mailbox.ts.
 */
/**
 * Bounds on what a run holds in its state, beside the per-message ones (src/plan/requests/control.ts) and the
 * plan's (plan/schema.ts): together they keep the snapshot a run hands to itself when it
 * continues as new under Temporal's 2 MB payload limit. docs/bounds.md lists them all.
 */
export declare const RUN_LIMITS: {
    /**
     * Task outputs, accepted adjudication results and attempt evidence held by one run, as JSON.
     * Every dependency output an attempt receives is among them, so its input stays bounded too.
     */
    readonly outputsHeldBytes: number;
    /**
     * Free text (reasons, evidence digests) of the adjudications still pending; past it a new one's reason is left out.
     */
    readonly pendingTextChars: number;
    /** A decided record's reasons are clipped to this. */
    readonly decidedReasonChars: 200;
    /** Decided adjudication records kept (newest); the events and Temporal's history keep the rest. */
    readonly decidedAdjudications: 100;
    /** Decision ids remembered for idempotency (newest). */
    readonly decisionIds: 256;
    /** The event ring, in bytes of JSON, beside its count bound. */
    readonly eventBytes: number;
    /** A task's `lastError`, and any text field of an event. */
    readonly errorChars: 1000;
    readonly eventTextChars: 300;
};
/** A string cut to `max` characters, saying how much was left out. */
export declare function clip(text: string, max: number): string;
