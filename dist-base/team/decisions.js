"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ABORT_REJECTS_APPROVALS = void 0;
exports.validateAdjudicate = validateAdjudicate;
exports.adjudicate = adjudicate;
exports.requestApprovals = requestApprovals;
exports.expireApprovals = expireApprovals;
exports.rejectApprovalsOnAbort = rejectApprovalsOnAbort;
exports.nextApprovalDeadline = nextApprovalDeadline;
const bytes_1 = require("../plan/bytes");
const approval_1 = require("./approval");
const bounds_1 = require("./bounds");
const control_1 = require("../plan/requests/control");
const governance_1 = require("./governance");
/** Every check of an `adjudicate` request, in the order the contract gives; throws `TeamControlError`. */
function validateAdjudicate(run, payload) {
    const request = (0, control_1.parseControl)(control_1.AdjudicateRequestSchema, payload, 'adjudicate');
    const resultBytes = (0, bytes_1.jsonBytes)(request.result);
    if (resultBytes > control_1.MESSAGE_LIMITS.resultBytes) {
        throw new control_1.TeamControlError('value_too_large', `adjudicate: result: ${resultBytes} bytes of JSON, over the ${control_1.MESSAGE_LIMITS.resultBytes}-byte bound on a ` +
            `task's output (store large results elsewhere and pass a reference)`, 'result');
    }
    (0, governance_1.checkActor)(run.plan, request.actor, 'adjudicate');
    if (run.adjudications.isDecided(request.decisionId))
        return request;
    const i = run.graph.indexOf(request.key);
    if (i === undefined)
        throw new control_1.TeamControlError('not_found', `adjudicate: no task "${request.key}"`);
    const notApprover = (0, approval_1.approverRefusal)(run.spec(i), request.actor);
    if (notApprover)
        throw new control_1.TeamControlError('forbidden', `adjudicate: ${notApprover}`);
    const record = run.adjudications.pending(request.key);
    const task = run.graph.tasks[i];
    if (task.status !== 'adjudication' || !record) {
        throw new control_1.TeamControlError('adjudication_not_required', `adjudicate: task "${request.key}" is ${task.status}, not awaiting adjudication`);
    }
    if (request.evidenceDigest !== undefined && request.evidenceDigest !== record.evidenceDigest) {
        throw new control_1.TeamControlError('evidence_mismatch', `adjudicate: evidenceDigest "${request.evidenceDigest}" differs from the recorded ` +
            `"${record.evidenceDigest ?? ''}"`);
    }
    if (request.decision === 'accept' && !run.canHold(request.result ?? record.result ?? null)) {
        const bytes = (0, bytes_1.jsonBytes)(request.result ?? record.result ?? null);
        throw new control_1.TeamControlError('value_too_large', `adjudicate: result: ${run.outputsFullMessage(bytes)}`, 'result');
    }
    if (request.decision === 'retry' && !run.acceptingWork) {
        throw new control_1.TeamControlError('run_not_accepting_work', `adjudicate: the run ${run.abort ? 'was aborted' : run.closed ? 'is closing' : 'stopped on its budget'}; only ` +
            `accept or reject apply`);
    }
    return request;
}
function adjudicate(run, payload, now) {
    const request = validateAdjudicate(run, payload);
    if (run.adjudications.isDecided(request.decisionId))
        return earlierDecision(run, request.decisionId);
    return decide(run, request, now);
}
/** Applies a decision already checked (by `validateAdjudicate`, or an approval's timeout). */
function decide(run, request, now) {
    const i = run.graph.indexOf(request.key);
    const task = run.graph.tasks[i];
    const record = run.adjudications.pending(request.key);
    record.decision = {
        decisionId: request.decisionId,
        decision: request.decision,
        actor: request.actor ?? null,
        reason: request.reason === undefined ? null : (0, bounds_1.clip)(request.reason, bounds_1.RUN_LIMITS.decidedReasonChars),
        decidedAt: now,
    };
    run.events.record('task:adjudicated', now, {
        key: task.key,
        decision: request.decision,
        decisionId: request.decisionId,
        actor: record.decision.actor,
    });
    if (request.decision === 'retry') {
        task.uncounted = task.attempts;
        task.lastError = null;
        run.graph.makeReady(i, now);
    }
    else if (request.decision === 'accept') {
        run.succeed(i, request.result ?? record.result ?? null, now);
    }
    else {
        run.fail(i, `rejected by adjudication${request.reason ? `: ${request.reason}` : ''}`, now);
    }
    run.adjudications.clipDecided(record);
    run.adjudications.remember(request.decisionId, task.key);
    run.forgetOldDecided();
    run.touch();
    return { ok: true, task: run.graph.view(i) };
}
/** A decision repeated: the same verdict, with the task as it is now (its decision is final, or moved it on). */
function earlierDecision(run, decisionId) {
    const i = run.graph.indexOf(run.adjudications.decidedKey(decisionId));
    return { ok: true, idempotent: true, task: run.graph.view(i) };
}
/**
 * Approval tasks that became ready go straight to adjudication: no activity, no teammate,
 * no reservation. Each request has a fencing token of its own, so a `retry` asks again.
 */
function requestApprovals(run, now) {
    // Claiming asks on every step: a run without approval tasks must not walk its ready queue each time.
    if (!hasApprovalTasks(run))
        return;
    const ready = [...run.graph.ready.inOrder()].filter((i) => (0, approval_1.approvalOf)(run.spec(i)) !== null);
    for (const i of ready) {
        const task = run.graph.tasks[i];
        run.graph.ready.remove(i);
        task.fencingToken += 1;
        task.startedAt ??= now;
        const request = {
            holder: approval_1.APPROVAL_HOLDER,
            leaseId: `${run.workflowId}/${task.key}/${task.fencingToken}`,
            fencingToken: task.fencingToken,
        };
        run.toAdjudication(i, approval_1.APPROVAL_CODE, request, now, { reason: (0, approval_1.approvalReason)(run.spec(i)) });
    }
    if (ready.length)
        run.touch();
}
/**
 * Approvals nobody decided within their `timeoutMs`: decided by their `onTimeout` (reject unless the plan says accept).
 */
function expireApprovals(run, now) {
    // A copy: deciding may forget old decided records, which splices the list.
    for (const record of run.adjudications.records.slice()) {
        const i = run.graph.indexOf(record.key);
        const deadline = i === undefined ? null : (0, approval_1.approvalDeadline)(run.spec(i), record);
        if (i === undefined || deadline === null || deadline > now)
            continue;
        const decision = (0, approval_1.approvalOf)(run.spec(i))?.onTimeout ?? 'reject';
        const decisionId = `approval-timeout:${record.key}:${record.fencingToken}`;
        const reason = `no decision within ${(0, approval_1.approvalOf)(run.spec(i))?.timeoutMs} ms`;
        decide(run, { key: record.key, decision, decisionId, reason }, now);
    }
}
/** Rule change: an abort decides pending approvals at once (runs recorded before it waited for their timers). */
exports.ABORT_REJECTS_APPROVALS = 'teamrun-abort-rejects-approvals';
/**
 * An abort asks no human any more: each approval still waiting is rejected on the abort's behalf
 * (its dependents were skipped by the abort already), so the run closes instead of waiting for an
 * approver or a timer. Other adjudications (attempts the abort stopped) still wait for a person.
 */
function rejectApprovalsOnAbort(run, now) {
    const waiting = run.adjudications.records.filter((r) => r.code === approval_1.APPROVAL_CODE && !r.decision);
    if (waiting.length === 0 || !run.patched(exports.ABORT_REJECTS_APPROVALS))
        return;
    const by = run.abort?.actor ?? 'an operator';
    const why = run.abort?.reason ? `: ${run.abort.reason}` : '';
    for (const record of waiting) {
        const decisionId = `abort:${record.key}:${record.fencingToken}`;
        const reason = `run aborted by ${by} before a decision${why}`;
        decide(run, { key: record.key, decision: 'reject', decisionId, actor: run.abort?.actor ?? undefined, reason }, now);
    }
}
/** The earliest time a pending approval times out, if any does. */
function nextApprovalDeadline(run) {
    return run.adjudications.approvalDeadline((key) => {
        const i = run.graph.indexOf(key);
        return i === undefined ? undefined : run.spec(i);
    });
}
/** Approval tasks counted so far per graph: tasks are only ever appended, so only the new ones are looked at. */
const approvalCounts = new WeakMap();
function hasApprovalTasks(run) {
    const { specs } = run.graph;
    const known = approvalCounts.get(run.graph) ?? { size: 0, count: 0 };
    let { count } = known;
    for (let i = known.size; i < specs.length; i++)
        if ((0, approval_1.approvalOf)(specs[i]) !== null)
            count += 1;
    approvalCounts.set(run.graph, { size: specs.length, count });
    return count > 0;
}
