/**
 * Adjudication as the contract states it: the codes that send a task to a human, the records the
 * `adjudications` query lists, and the `adjudicate` update's answer and refusals. Shapes only;
 * the request's shape is its zod schema's (src/plan/requests/control.ts).
 */
import type { Usage } from '../plan/schema';
import type { Decision } from '../plan/requests/control';
import type { TaskView } from './run';

export type { AdjudicateRequest, Decision, ReopenTaskRequest } from '../plan/requests/control';

export type AdjudicationCode =
  | 'TEAM_TASK_HUMAN_INTERRUPTED'
  | 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED'
  | 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED'
  | 'TEAM_WALL_BUDGET_EXHAUSTED'
  | 'TEAM_TASK_APPROVAL_REQUIRED'
  | 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED'
  /** The attempt was refused more budget while it ran (a usage report or `teamrun reserve` past its grant). */
  | 'TEAM_TASK_BUDGET_EXCEEDED'
  /** The attempt made no step for its `stallAfterMs` (docs/leases.md#stalls): stopped on its worker. */
  | 'TEAM_TASK_STALLED'
  /** The model provider did not answer within the task's `modelRetry` (5xx, 429, 408, connection resets). */
  | 'TEAM_TASK_MODEL_UNAVAILABLE'
  /** A settled task a person sent back (`reopenTask`): `reason` says why and who, `dependents` what already ran. */
  | 'TEAM_TASK_REOPENED';

export interface AdjudicationDecision {
  decisionId: string;
  decision: Decision;
  actor: string | null;
  reason: string | null;
  decidedAt: number;
}

/** One adjudication, pending (`decision` null) or decided. */
export interface AdjudicationRecord {
  key: string;
  /** One of `AdjudicationCode`, or the operator's own from `abortRun { code }`. */
  code: AdjudicationCode | (string & {});
  reason: string | null;
  requestId: string | null;
  actor: string | null;
  evidenceDigest: string | null;
  holder: string;
  leaseId: string;
  fencingToken: number;
  requestedAt: number;
  usage: Usage | null;
  result: unknown;
  decision: AdjudicationDecision | null;
  /** A reopened task's dependents (direct and further) that had already run when it was reopened. */
  dependents?: string[];
}

/** The `reopenTask` update's answer: the task (now in adjudication) and its dependents that already ran. */
export interface ReopenTaskVerdict {
  ok: true;
  /** The same `requestId` was applied before: the task as it is now. */
  idempotent?: true;
  task: TaskView;
  dependents: string[];
}

/** The `adjudicate` update's answer; a repeated `decisionId` answers `idempotent` with the task as it is now. */
export interface AdjudicateVerdict {
  ok: true;
  idempotent?: true;
  task: TaskView;
}

/** Why the `adjudicate` validator refuses a decision (the update's failure type). */
export type AdjudicateRejectReason =
  | 'not_found'
  | 'invalid_decision'
  | 'decision_id_required'
  | 'adjudication_not_required'
  | 'evidence_mismatch'
  | 'forbidden'
  | 'run_not_accepting_work'
  | 'value_too_large'
  | 'invalid_request'
  /** `reopenTask`: the task is not succeeded, failed or skipped (or a skipped one's dependencies did not succeed). */
  | 'not_reopenable'
  /** `reopenTask`: the run is closing; a closed run is refused by the server (start a new run instead). */
  | 'run_closed';
