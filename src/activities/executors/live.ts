/**
 * What a model call has produced so far, before its step ends (issue 38's streaming): partial assistant text and
 * tool-call arguments. Shown live to watchers, never written to the run's history: the durable transcript keeps
 * whole steps only.
 */
export interface PartialOutput {
  /** The agent's turn (model call) this belongs to, 1-based. */
  turn: number;
  /** The assistant text so far in this call (all of it, not a delta). */
  text: string;
  /** Tool calls being written in this call: each one's name and its arguments' text so far. */
  toolCalls?: Array<{ name: string; args: string }>;
}

/** Where an executor reports partial output while a call is in progress; the worker throttles and publishes it. */
export interface LiveOutput {
  partial(output: PartialOutput): void;
  /** The call ended (its step is journaled or failed): watchers drop its partial text. */
  done(turn: number): void;
}
