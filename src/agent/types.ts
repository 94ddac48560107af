/**
 * An agent task's journal: the transcript of its attempts, step by step, kept in a workflow of its
 * own (`agentJournal`, one per task of a run), never in the run's snapshot or history. Shapes and
 * bounds only; no Node imports (the workflow uses this file).
 */
import type { AttemptProof } from '../contract';
import type { Usage } from '../plan/schema';

export const JOURNAL_WORKFLOW_TYPE = 'agentJournal';

/** The journal of task `key` of run `workflowId`: one id per task, whichever attempt writes it. */
export function journalId(workflowId: string, key: string): string {
  return `teamrun-agent:${workflowId}:${key}`;
}

export const JOURNAL_LIMITS = {
  /** The transcript as JSON: it rides in one continue-as-new payload (Temporal's limit is 2 MB). */
  transcriptBytes: 1024 * 1024,
  /** One append's entries as JSON. */
  appendBytes: 256 * 1024,
  /** A tool result as the model sees it: a longer one is cut, with a note saying so. */
  toolResultChars: 16 * 1024,
  /** A model answer's text kept in the transcript. */
  answerChars: 64 * 1024,
  /** A steer's text (CONTRACT: `steerTask`), in bytes. */
  steerBytes: 8 * 1024,
  /** Steers waiting for the agent's next model call. */
  pendingSteers: 16,
  /** History events before the journal continues as new (each step is an update). */
  continueAsNewEvents: 2_000,
  /** A journal nobody wrote to for this long closes (a later attempt then starts afresh). */
  idleMs: 20 * 24 * 3600_000,
} as const;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A model's answer as the conversation holds it. */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
}

/** One step of the transcript; replayed in order, these are the conversation so far. */
export type JournalEntry =
  /** The conversation as the first attempt began it (instructions, prompt, dependency outputs). */
  | { kind: 'start'; messages: ChatMessage[] }
  /**
   * Mail as one user message: what an attempt found waiting when it started, or what came before a model call
   * (`upTo`: the last message id it holds, so a retry joins none twice); `check: 'output'`: not mail, the answer's
   * mismatches with the task's outputSchema, for the model to fix.
   */
  | { kind: 'inbox'; content: string; upTo?: number; check?: 'output' }
  /** A person's guidance (`steerTask`), joined before model call `turn`. */
  | { kind: 'steer'; turn: number; text: string; actor: string | null }
  /** Model call `turn` answered: journaled before any tool it asks for runs. */
  | { kind: 'model'; turn: number; message: AssistantMessage; usage?: Usage }
  /** A tool call about to run: a crash before its result makes it "interrupted" (unless idempotent). */
  | { kind: 'tool-start'; turn: number; id: string; name: string }
  | { kind: 'tool-result'; turn: number; id: string; name: string; ok: boolean; content: string; ms: number };

export interface JournalSnapshot {
  runWorkflowId: string;
  key: string;
  /** The greatest fencing token that wrote here: a lower one is a stale attempt. */
  fencingToken: number;
  entries: JournalEntry[];
  /** The model call whose steers were last taken (0: none yet): a steer now joins the next one. */
  turnOpen: number;
  pending: Array<{ text: string; actor: string | null }>;
  /** The greatest mail id the run said came for this task (`mailHint` signal); absent: none yet. */
  mail?: number;
  /**
   * The head of the writing attempt's hash chain (src/agent/chain.ts): its anchor, confirmed with its
   * worker at `open`, then the last link it wrote. Absent until an attempt opened the journal with a proof.
   */
  chain?: string;
}

/**
 * A journal step. `beginTurn` and `finish` may carry `entries` owed from before (the last tool results, the final
 * answer): appended first, in the same update, so a step costs one write, not two (since JOURNAL_BATCH_PATCH's
 * stop; a journal recorded before never saw them).
 */
export type JournalOp =
  | { op: 'open' }
  | { op: 'append'; entries: JournalEntry[] }
  | { op: 'beginTurn'; turn: number; entries?: JournalEntry[] }
  | { op: 'finish'; entries?: JournalEntry[] };

/**
 * What the attempt's gateway sends: the op, with the token of the attempt that asks and its proof:
 * at `open` the anchor of its hash chain and the gateway's `attempt` (queue and one-time nonce,
 * which the journal confirms with that worker); at every later op the chain's next link (`link`).
 */
export type JournalRequest = JournalOp & {
  fencingToken: number;
  anchor?: string;
  attempt?: AttemptProof;
  link?: string;
};

export type JournalAnswer =
  | { op: 'open'; entries: JournalEntry[] }
  | { op: 'append'; bytes: number }
  /**
   * `mail`: the greatest mail id the run said came for the task (0: none said): the agent reads its inbox before
   * the call only when it is past what its conversation holds (or at its attempt's first call).
   */
  | { op: 'beginTurn'; steers: Array<{ text: string; actor: string | null }>; mail?: number }
  | { op: 'finish' };

export interface SteerRequest {
  text: string;
  actor: string | null;
  fencingToken: number;
  /** The proof of the worker whose `steerAgent` the run handed the steer; the journal confirms it. */
  attempt?: AttemptProof;
}

/** A refusal's code (the failure's type): CONTRACT's for steers, the journal's own for the rest. */
export type JournalRefusal =
  | 'stale_attempt'
  | 'value_too_large'
  | 'transcript_too_large'
  | 'invalid_request'
  /** A write without its attempt's proof: no anchor confirmed by its worker, or a link that does not follow. */
  | 'unproven';

/** Since this patch the journal takes only proven writes (a journal recorded before it replays as it ran). */
export const JOURNAL_PROOF_PATCH = 'teamrun-journal-proof';
/** Marks a journal that took a cron run or a retry as new, not as its own continue-as-new (recorded before: as one). */
export const JOURNAL_PLANTED_PATCH = 'teamrun-journal-planted';
