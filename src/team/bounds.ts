/**
 * Owns the run-wide bounds on state held in memory and in the snapshot, and `clip`. Constants
 * only: the parts that hold state enforce them; message bounds stay in src/plan/requests/control.ts and mailbox.ts.
 */
/**
 * Bounds on what a run holds in its state, beside the per-message ones (src/plan/requests/control.ts) and the
 * plan's (plan/schema.ts): together they keep the snapshot a run hands to itself when it
 * continues as new under Temporal's 2 MB payload limit. docs/bounds.md lists them all.
 */
/**
 * The waits of a task's request to its run (`teamrun reserve` and the other gateway doors), each inside the one that
 * holds it; docs/budgets.md has the table. The gateway waits `verdictMs` for the run's verdict; what the run asks
 * elsewhere before it answers (the shared ledger's extension) ends `marginMs` before that, so its answer, a refusal
 * included, still reaches the attempt as the run's verdict rather than as a gateway that gave up waiting.
 */
export const ATTEMPT_WAITS = {
  verdictMs: 60_000,
  marginMs: 10_000,
} as const;

export const RUN_LIMITS = {
  /**
   * Task outputs, accepted adjudication results and attempt evidence held by one run, as JSON.
   * Every dependency output an attempt receives is among them, so its input stays bounded too.
   */
  outputsHeldBytes: 384 * 1024,
  /**
   * Free text (reasons, evidence digests) of the adjudications still pending; past it a new one's reason is left out.
   */
  pendingTextChars: 128 * 1024,
  /** A decided record's reasons are clipped to this. */
  decidedReasonChars: 200,
  /** Decided adjudication records kept (newest); the events and Temporal's history keep the rest. */
  decidedAdjudications: 100,
  /** Decision ids remembered for idempotency (newest). */
  decisionIds: 256,
  /** The event ring, in bytes of JSON, beside its count bound. */
  eventBytes: 128 * 1024,
  /** A task's `lastError`, and any text field of an event. */
  errorChars: 1_000,
  eventTextChars: 300,
} as const;

/** A string cut to `max` characters, saying how much was left out. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more chars)`;
}
