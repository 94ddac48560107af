/**
 * The control messages people and tasks send a run (interrupt, abort, add tasks, the worker's
 * `attemptRunning`) and what each answers. Request shapes are their zod schemas' (src/team,
 * src/plan); the answers and refusal codes are declared here and the run must satisfy them.
 */
import type { PlanProblemCode } from './plan';
import type { Interruption } from './run';
import type { BudgetView } from './budget';

export type { AbortRequest, InterruptRequest, TightenBudgetRequest } from '../plan/requests/control';
export type { LinkRunRequest } from '../plan/requests/link';

/**
 * The interruption an `interruptTask` update answers with: which attempt, and who asked. The
 * request's fields are always there on the wire; they are optional in the type only because the
 * run builds the view by spreading an interruption its type allows to be null (src/team/takeover.ts).
 */
export interface InterruptionView extends Partial<Interruption> {
  key: string;
  holder: string;
  leaseId: string;
  fencingToken: number;
}

/** Why an `interruptTask` does not apply (a signal records it as `control:rejected`). */
export type InterruptRejectReason =
  'not_active' | 'stale_attempt' | 'already_interrupted' | 'forbidden' | 'invalid_request' | 'value_too_large';

export type InterruptVerdict =
  | { ok: true; idempotent?: true; interruption: InterruptionView }
  | { ok: false; reason: InterruptRejectReason; message?: string };

/** Why an `abortRun` does not apply. */
export type AbortRejectReason = 'forbidden' | 'invalid_request' | 'value_too_large';

/** `activeClaims`: the attempts the abort stopped (or, repeated, that still hold a lease). */
export type AbortVerdict =
  { ok: true; idempotent?: true; activeClaims: number } | { ok: false; reason: AbortRejectReason; message?: string };

/** `tightenBudget`: the budget with its new limits (the run stopped already if they are at or below what is used). */
export interface TightenBudgetVerdict {
  ok: true;
  budget: BudgetView;
}

/** Why `tightenBudget` is refused (the update's failure type). */
export type TightenBudgetRejectReason = 'loosening_refused' | 'forbidden' | 'invalid_request';

/** The spawn limits: refusal codes of `addTasks`, never reasons the run stops. */
export type SpawnLimit = 'max-spawned-tasks' | 'max-depth';

/** The `addTasks` update's answer: the keys added, in request order. */
export interface AddTasksVerdict {
  ok: true;
  added: string[];
  idempotent?: true;
}

/** Why `addTasks` is refused (the update's failure type): a plan problem, or one of the run's own reasons. */
export type AddTasksRejectReason =
  PlanProblemCode | SpawnLimit | 'unknown_parent' | 'stale_attempt' | 'forbidden' | 'run_not_accepting_work';

/** The internal `attemptRunning` signal: the attempts of one run that one worker's stop queue reaches. */
export interface AttemptsRunning {
  queue: string;
  attempts: Array<{ key: string; fencingToken: number }>;
}

/** `linkRun`: the runs the attempt has linked now (a repeat of one it has is `idempotent`). */
export interface LinkRunVerdict {
  ok: true;
  linked: number;
  idempotent?: true;
}

/** Why `linkRun` is refused (the update's failure type). */
export type LinkRunRejectReason = 'not_found' | 'stale_attempt' | 'forbidden' | 'too_many_runs' | 'invalid_request';
