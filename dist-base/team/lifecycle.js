"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.beginWait = beginWait;
exports.nextWakeAt = nextWakeAt;
exports.adjudicationDeadline = adjudicationDeadline;
exports.closeUnresolved = closeUnresolved;
exports.runStatus = runStatus;
exports.state = state;
exports.status = status;
exports.finish = finish;
const decisions_1 = require("./decisions");
const result_1 = require("./result");
function beginWait(run, now, handingOver) {
    const closesAt = adjudicationDeadline(run, now);
    const approvalAt = (0, decisions_1.nextApprovalDeadline)(run);
    if (closesAt !== null)
        return { timeoutMs: Math.min(closesAt, approvalAt ?? Infinity) - now, closesAt };
    const readyAt = nextWakeAt(run, now);
    const wake = readyAt === null ? approvalAt : approvalAt === null ? readyAt : Math.min(readyAt, approvalAt);
    return { timeoutMs: wake !== null && wake > now && !handingOver ? wake - now : null, closesAt: null };
}
/**
 * The earliest time after `now` a task waiting out its retry backoff becomes claimable. Ready
 * tasks already past their backoff (waiting for a teammate or a scope) wake nothing: a settle
 * frees those, and must not hide a later backoff that only time ends.
 */
function nextWakeAt(run, now) {
    return run.acceptingWork ? run.graph.nextReadyAt(now) : null;
}
/**
 * While the run waits on adjudication only: when that wait gives up (`adjudicationTimeoutMs`
 * after it began), starting its clock if it had not. Null, and the clock reset, while the run
 * has work. The clock is in the snapshot, so continuing as new does not restart it.
 */
function adjudicationDeadline(run, now) {
    if (run.phase() !== 'awaiting_adjudication') {
        run.awaitingSince = null;
        return null;
    }
    run.awaitingSince ??= now;
    return run.awaitingSince + run.plan.adjudicationTimeoutMs;
}
function closeUnresolved(run, now) {
    run.closed = 'adjudication-timeout';
    run.events.record('run:adjudication-timeout', now, { pending: run.pendingAdjudications });
    run.touch();
}
function runStatus(run) {
    if (run.abort)
        return 'aborted';
    if (run.budget.stopped)
        return 'budget_stopped';
    if (run.pendingAdjudications > 0)
        return 'unresolved';
    if (run.graph.count('failed') + run.graph.count('skipped') > 0)
        return 'failed';
    return 'succeeded';
}
function state(run) {
    const phase = run.phase();
    if (phase === 'working')
        return 'running';
    if (phase === 'awaiting_adjudication')
        return 'awaiting_adjudication';
    return runStatus(run);
}
function status(run, now) {
    return {
        name: run.plan.name,
        state: state(run),
        stats: run.graph.stats(),
        budget: run.budget.view(now, run.startedAt),
        teammates: { requested: run.plan.teammates, active: run.leases.size },
        startedAt: run.startedAt,
        pendingAdjudications: run.pendingAdjudications,
        ...(run.cancelRequestedAt !== null ? { cancelRequestedAt: run.cancelRequestedAt } : {}),
        executions: run.executions,
        maxConcurrent: run.maxConcurrent,
    };
}
/** Closes the run: tasks that can no longer start are skipped, `run:end` recorded. */
function finish(run, now) {
    run.graph.skipNotStarted('run closed before its dependencies settled', now);
    const result = runStatus(run);
    const cancellation = cancellationView(run);
    run.clock = now;
    run.members.shutdown(now);
    run.events.record('run:end', now, {
        status: result,
        stats: run.graph.stats(),
        ...(cancellation ? { cancelled: true } : {}),
    });
    run.touch();
    return {
        status: result,
        stats: run.graph.stats(),
        executions: run.executions,
        maxConcurrent: run.maxConcurrent,
        budget: run.budget.view(now, run.startedAt),
        budgetReason: run.budget.reason,
        // Every view while they fit in a page (older runs: in the 2 MB result); past that, see `boundTaskViews`.
        ...(0, result_1.boundTaskViews)(run.graph.tasksView({ limit: run.graph.size }), run.patched(result_1.COMPACT_RESULT) ? result_1.RESULT_TASKS_COMPACT_BYTES : result_1.RESULT_TASKS_MAX_BYTES),
        adjudications: run.adjudications.records,
        ...(cancellation ? { cancellation } : {}),
    };
}
function cancellationView(run) {
    if (run.cancelRequestedAt === null)
        return undefined;
    const abandoned = run.pendingAdjudications;
    let message = 'cancelled: every adjudication was decided before the run closed';
    if (abandoned > 0) {
        const why = run.closed === 'adjudication-timeout'
            ? 'nobody decided within adjudicationTimeoutMs'
            : 'awaitAdjudication is false';
        message = `cancelled: ${abandoned} adjudication(s) abandoned (${why}); they can no longer be decided`;
    }
    return { requestedAt: run.cancelRequestedAt, abandonedAdjudications: abandoned, message };
}
