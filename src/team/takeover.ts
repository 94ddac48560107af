/**
 * Human takeover of a running attempt (`interruptTask`) and the coordinator's abort of the whole
 * run (`abortRun`, or Temporal's own cancellation), each checked in the order CONTRACT.md gives
 * and answered with a verdict. Stops attempts through the leases; what a stopped attempt's
 * outcome then does to its task is settlement's.
 */
import type { AbortVerdict, InterruptVerdict, InterruptionView } from '../contract';
import type { RunContext } from './context';
import {
  ABORT_CODE_DEFAULT,
  AbortRequestSchema,
  InterruptRequestSchema,
  TeamControlError,
  parseControl,
  type AbortRequest,
} from '../plan/requests/control';
import { rejectApprovalsOnAbort } from './decisions';
import { cascadeOf, type CascadeKind } from './cascade';
import { checkActor, ledgerAbortClaim, type LedgerAbortAnswer } from './governance';
import type { Attempt, Interruption } from './types';

export type { LedgerAbortAnswer } from './governance';

type Control = { requestId: string | null; actor: string | null };

/** Since this patch an `interruptTask` without a fencing token interrupts the current attempt. */
export const INTERRUPT_CURRENT_PATCH = 'teamrun-interrupt-current';

/** Validates an interruptTask payload for the update validator (shape and governance only). */
export function validateInterrupt(run: RunContext, payload: unknown): void {
  const request = parseControl(InterruptRequestSchema, payload, 'interruptTask');
  checkActor(run.plan, request.actor, 'interruptTask');
}

export function interrupt(run: RunContext, payload: unknown, now: number): InterruptVerdict {
  let request;
  try {
    request = parseControl(InterruptRequestSchema, payload, 'interruptTask');
    checkActor(run.plan, request.actor, 'interruptTask');
  } catch (err) {
    return rejected(run, 'interruptTask', payload, err, now) as InterruptVerdict;
  }
  const control: Control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
  const attempt = run.leases.get(request.key);
  const reject = (reason: 'not_active' | 'stale_attempt' | 'already_interrupted'): InterruptVerdict => {
    run.events.record('control:rejected', now, { message: 'interruptTask', key: request.key, reason, ...control });
    run.touch();
    return { ok: false, reason };
  };
  if (!attempt || (attempt.stop && attempt.stop.kind !== 'interrupt')) {
    // A client retrying a request that already landed (and whose attempt has since settled) gets the same answer.
    const settled = settledInterruption(run, request.key, request.fencingToken, control.requestId);
    if (settled)
      return duplicate(run, 'interruptTask', control, now, { ok: true, idempotent: true, interruption: settled });
    return reject('not_active');
  }
  // Without a token (optional in the schema) the current attempt is meant; histories from before took none as stale.
  const current = request.fencingToken === undefined && run.patched(INTERRUPT_CURRENT_PATCH);
  if (!current && request.fencingToken !== attempt.fencingToken) return reject('stale_attempt');
  if (attempt.stop?.kind === 'interrupt') {
    if (attempt.stop.interruption.requestId !== control.requestId) return reject('already_interrupted');
    const interruption = interruptionView(request.key, attempt);
    return duplicate(run, 'interruptTask', control, now, { ok: true, idempotent: true, interruption });
  }
  const interruption: Interruption = {
    ...control,
    reason: request.reason ?? null,
    evidenceDigest: request.evidenceDigest ?? null,
    requestedAt: now,
  };
  run.leases.stop(request.key, attempt, { kind: 'interrupt', interruption });
  run.events.record('task:interrupt-requested', now, {
    key: request.key,
    fencingToken: attempt.fencingToken,
    ...control,
    reason: interruption.reason,
  });
  run.touch();
  return { ok: true, interruption: interruptionView(request.key, attempt) };
}

/** A ledger sends its aborts as signals, never as an update: one naming the run's ledger is nobody's. */
const NOT_AS_UPDATE: LedgerAbortAnswer = { confirmed: false, why: 'a ledger sends its aborts as signals, not updates' };

export function validateAbort(run: RunContext, payload: unknown): void {
  const request = parseControl(AbortRequestSchema, payload ?? {}, 'abortRun');
  if (!cascadeOf(run.plan, request)) checkActor(run.plan, request.actor, 'abortRun', NOT_AS_UPDATE);
}

/**
 * Whether an `abortRun` signal must wait for its ledger's word (governance.ts): the workflow then asks the ledger and
 * calls `abort` with the answer. Null when not; else the time since which the ledger's abort must name the run.
 */
export function abortNeedsLedger(run: RunContext, payload: unknown): { since: number } | null {
  const actor = typeof payload === 'object' && payload !== null ? (payload as { actor?: unknown }).actor : undefined;
  // An aborted run has nothing left to ask about: a repeat is answered as one.
  if (run.abort || typeof actor !== 'string' || !ledgerAbortClaim(run.plan, actor)) return null;
  return { since: run.startedAt };
}

/**
 * Coordinator abort: nothing new starts, active attempts are stopped, the rest skipped. `ledger`: what the run's
 * ledger answered when asked whether it sent the abort (one naming the ledger as its actor applies only with a yes).
 */
export function abort(run: RunContext, payload: unknown, now: number, ledger?: LedgerAbortAnswer): AbortVerdict {
  let request;
  let fromParent: CascadeKind | null;
  try {
    request = parseControl(AbortRequestSchema, payload ?? {}, 'abortRun');
    // The parent's cascade passes governance with its token (cascade.ts); anyone else is an actor to check.
    fromParent = cascadeOf(run.plan, request);
    if (!fromParent) checkActor(run.plan, request.actor, 'abortRun', ledger);
  } catch (err) {
    return rejected(run, 'abortRun', payload, err, now) as AbortVerdict;
  }
  if (run.abort) {
    const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
    return duplicate(run, 'abortRun', control, now, { ok: true, idempotent: true, activeClaims: run.leases.size });
  }
  return applyAbort(run, request, now, fromParent);
}

/**
 * Temporal cancelled the workflow (`temporal workflow cancel`, the UI's button): an abort that
 * Temporal's own authorization already allowed. With `awaitAdjudication` the run then waits for
 * its adjudications like any aborted run; either way it closes as Canceled, not Completed.
 */
export function cancelRequested(run: RunContext, now: number): void {
  if (run.cancelRequestedAt !== null) return;
  if (!run.abort) applyAbort(run, { reason: 'workflow cancellation requested', actor: 'temporal' }, now);
  run.cancelRequestedAt = now;
  run.events.record('run:cancel-requested', now, { activeClaims: run.leases.size, pending: run.pendingAdjudications });
  run.touch();
}

function applyAbort(
  run: RunContext,
  request: AbortRequest,
  now: number,
  fromParent?: CascadeKind | null,
): AbortVerdict {
  run.abort = {
    reason: request.reason ?? null,
    requestId: request.requestId ?? null,
    actor: request.actor ?? null,
    at: now,
    code: request.code ?? ABORT_CODE_DEFAULT,
    ...(fromParent ? { fromParent } : {}),
  };
  const activeClaims = run.leases.size;
  run.events.record('run:abort-requested', now, { ...run.abort, activeClaims });
  run.leases.stopAll({ kind: 'abort', requireAdjudication: request.requireAdjudication ?? true });
  run.graph.skipNotStarted('run_aborted', now);
  rejectApprovalsOnAbort(run, now);
  run.touch();
  return { ok: true, activeClaims };
}

function interruptionView(key: string, attempt: Attempt): InterruptionView {
  const interruption = attempt.stop?.kind === 'interrupt' ? attempt.stop.interruption : null;
  return { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken: attempt.fencingToken, ...interruption };
}

/** The interruption of attempt `fencingToken` by `requestId`, once that attempt has settled into adjudication. */
function settledInterruption(run: RunContext, key: string, fencingToken: number | undefined, requestId: string | null) {
  const record = run.adjudications.latest(key);
  if (!record || record.code !== 'TEAM_TASK_HUMAN_INTERRUPTED') return null;
  // A request without a token, repeated, is the same request when its id is (and it has one).
  const anyToken = fencingToken === undefined && requestId !== null && run.patched(INTERRUPT_CURRENT_PATCH);
  if ((!anyToken && record.fencingToken !== fencingToken) || record.requestId !== requestId) return null;
  const { holder, leaseId, actor, reason, evidenceDigest, requestedAt } = record;
  return {
    key,
    holder,
    leaseId,
    fencingToken: record.fencingToken,
    requestId,
    actor,
    reason,
    evidenceDigest,
    requestedAt,
  };
}

/** A control message repeated with the same id changes nothing but is still on the record. */
function duplicate<T>(run: RunContext, message: string, control: Control, now: number, verdict: T): T {
  run.events.record('control:idempotent', now, { message, ...control });
  run.touch();
  return verdict;
}

/** A signal that cannot apply is on the record as `control:rejected`; anything but a TeamControlError is a bug. */
function rejected(run: RunContext, message: string, payload: unknown, err: unknown, now: number) {
  if (!(err instanceof TeamControlError)) throw err;
  const fields = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  // Bounded: a rejected payload may be oversized, and the event log lives in workflow memory.
  const said = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);
  run.events.record('control:rejected', now, {
    message,
    reason: err.code ?? 'invalid_request',
    field: err.field ?? null,
    detail: err.message.slice(0, 500),
    actor: said(fields.actor),
    requestId: said(fields.requestId),
  });
  run.touch();
  return { ok: false, reason: err.code ?? 'invalid_request', message: err.message };
}
