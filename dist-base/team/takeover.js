"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateInterrupt = validateInterrupt;
exports.interrupt = interrupt;
exports.validateAbort = validateAbort;
exports.abort = abort;
exports.cancelRequested = cancelRequested;
const control_1 = require("../plan/requests/control");
const decisions_1 = require("./decisions");
const governance_1 = require("./governance");
/** Validates an interruptTask payload for the update validator (shape and governance only). */
function validateInterrupt(run, payload) {
    const request = (0, control_1.parseControl)(control_1.InterruptRequestSchema, payload, 'interruptTask');
    (0, governance_1.checkActor)(run.plan, request.actor, 'interruptTask');
}
function interrupt(run, payload, now) {
    let request;
    try {
        request = (0, control_1.parseControl)(control_1.InterruptRequestSchema, payload, 'interruptTask');
        (0, governance_1.checkActor)(run.plan, request.actor, 'interruptTask');
    }
    catch (err) {
        return rejected(run, 'interruptTask', payload, err, now);
    }
    const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
    const attempt = run.leases.get(request.key);
    const reject = (reason) => {
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
    if (request.fencingToken !== attempt.fencingToken)
        return reject('stale_attempt');
    if (attempt.stop?.kind === 'interrupt') {
        if (attempt.stop.interruption.requestId !== control.requestId)
            return reject('already_interrupted');
        const interruption = interruptionView(request.key, attempt);
        return duplicate(run, 'interruptTask', control, now, { ok: true, idempotent: true, interruption });
    }
    const interruption = {
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
function validateAbort(run, payload) {
    const request = (0, control_1.parseControl)(control_1.AbortRequestSchema, payload ?? {}, 'abortRun');
    (0, governance_1.checkActor)(run.plan, request.actor, 'abortRun');
}
/** Coordinator abort: nothing new starts, active attempts are stopped, the rest skipped. */
function abort(run, payload, now) {
    let request;
    try {
        request = (0, control_1.parseControl)(control_1.AbortRequestSchema, payload ?? {}, 'abortRun');
        (0, governance_1.checkActor)(run.plan, request.actor, 'abortRun');
    }
    catch (err) {
        return rejected(run, 'abortRun', payload, err, now);
    }
    if (run.abort) {
        const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
        return duplicate(run, 'abortRun', control, now, { ok: true, idempotent: true, activeClaims: run.leases.size });
    }
    return applyAbort(run, request, now);
}
/**
 * Temporal cancelled the workflow (`temporal workflow cancel`, the UI's button): an abort that
 * Temporal's own authorization already allowed. With `awaitAdjudication` the run then waits for
 * its adjudications like any aborted run; either way it closes as Canceled, not Completed.
 */
function cancelRequested(run, now) {
    if (run.cancelRequestedAt !== null)
        return;
    if (!run.abort)
        applyAbort(run, { reason: 'workflow cancellation requested', actor: 'temporal' }, now);
    run.cancelRequestedAt = now;
    run.events.record('run:cancel-requested', now, { activeClaims: run.leases.size, pending: run.pendingAdjudications });
    run.touch();
}
function applyAbort(run, request, now) {
    run.abort = {
        reason: request.reason ?? null,
        requestId: request.requestId ?? null,
        actor: request.actor ?? null,
        at: now,
        code: request.code ?? control_1.ABORT_CODE_DEFAULT,
    };
    const activeClaims = run.leases.size;
    run.events.record('run:abort-requested', now, { ...run.abort, activeClaims });
    run.leases.stopAll({ kind: 'abort', requireAdjudication: request.requireAdjudication ?? true });
    run.graph.skipNotStarted('run_aborted', now);
    (0, decisions_1.rejectApprovalsOnAbort)(run, now);
    run.touch();
    return { ok: true, activeClaims };
}
function interruptionView(key, attempt) {
    const interruption = attempt.stop?.kind === 'interrupt' ? attempt.stop.interruption : null;
    return { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken: attempt.fencingToken, ...interruption };
}
/** The interruption of attempt `fencingToken` by `requestId`, once that attempt has settled into adjudication. */
function settledInterruption(run, key, fencingToken, requestId) {
    const record = run.adjudications.latest(key);
    if (!record || record.code !== 'TEAM_TASK_HUMAN_INTERRUPTED')
        return null;
    if (record.fencingToken !== fencingToken || record.requestId !== requestId)
        return null;
    const { holder, leaseId, actor, reason, evidenceDigest, requestedAt } = record;
    return { key, holder, leaseId, fencingToken, requestId, actor, reason, evidenceDigest, requestedAt };
}
/** A control message repeated with the same id changes nothing but is still on the record. */
function duplicate(run, message, control, now, verdict) {
    run.events.record('control:idempotent', now, { message, ...control });
    run.touch();
    return verdict;
}
/** A signal that cannot apply is on the record as `control:rejected`; anything but a TeamControlError is a bug. */
function rejected(run, message, payload, err, now) {
    if (!(err instanceof control_1.TeamControlError))
        throw err;
    const fields = typeof payload === 'object' && payload !== null ? payload : {};
    // Bounded: a rejected payload may be oversized, and the event log lives in workflow memory.
    const said = (value) => (typeof value === 'string' ? value.slice(0, 200) : null);
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
