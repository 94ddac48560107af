"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ATTEMPT_GONE = exports.ADOPT_WITHIN_MIN_MS = exports.SUGGESTED_SIZE_BYTES = void 0;
exports.handOverDue = handOverDue;
exports.handOverOnAnySuggestion = handOverOnAnySuggestion;
exports.carriable = carriable;
exports.mayCarry = mayCarry;
exports.handOverRequests = handOverRequests;
exports.adoptWithinMs = adoptWithinMs;
exports.adoptOutcome = adoptOutcome;
exports.adoptions = adoptions;
const claims_1 = require("./claims");
const stop_channel_1 = require("./stop-channel");
/**
 * When a run hands over to a fresh workflow run (continue-as-new).
 *
 * The event count is teamrun's own bound: the plan's `continueAsNewAfterEvents` (default 8,000,
 * at most 10,000, under the 10,240 events at which Temporal warns). Temporal also suggests a
 * handover (`continueAsNewSuggested`), by default at 4,096 events or 4 MB of history. Following
 * the count half of that suggestion made a 2,000-task run hand over once where a bare fan-out
 * never does (a drain of everything in flight, then a restart), and a 1,000-teammate run hand
 * over every ~4,000 events, each time draining 1,000 attempts. So the suggestion is followed for
 * history size only: at `SUGGESTED_SIZE_BYTES` or more.
 */
exports.SUGGESTED_SIZE_BYTES = 4 * 1024 * 1024;
/** `maxBytes`: the run's own bound on history size (`CONTINUE_AS_NEW_HISTORY_BYTES`), whatever Temporal suggests. */
function handOverDue(info, afterEvents, maxBytes) {
    if (info.historyLength >= afterEvents || info.historySize >= maxBytes)
        return true;
    return info.continueAsNewSuggested && info.historySize >= exports.SUGGESTED_SIZE_BYTES;
}
/**
 * The older rule: any suggestion from Temporal hands over, whatever the history's size. Runs whose
 * history began under it keep it, so they replay as they ran.
 */
function handOverOnAnySuggestion(info, afterEvents, maxBytes) {
    return info.continueAsNewSuggested || info.historyLength >= afterEvents || info.historySize >= maxBytes;
}
/**
 * Carrying attempts across a handover. A handover used to wait until nothing was in flight, so
 * one long attempt blocked it for as long as it ran while signals (rejected ones included: a
 * signal is recorded before any handler sees it) grew the history up to the server's limit.
 * An attempt that announced its worker's stop queue can instead be carried: the snapshot keeps
 * its lease (same fencing token: it is the same attempt), its worker is told to keep the
 * executor (`handOverAttempts`), and the next run re-attaches to it there (`adoptAttempt`).
 *
 * Not carried, and waited for as before: an attempt that has not announced yet (short, or about
 * to announce), one already stopped (its cancellation is on its way and ends it), and every
 * attempt of a run that holds shared-ledger slots (the slot's renewal lives in the old attempt).
 */
function carriable(attempt) {
    return attempt.stopQueue !== undefined && attempt.stop === null;
}
/** True when the run may hand over now with `attempts` in flight (none, or all carriable). */
function mayCarry(attempts, sharedLedger) {
    for (const attempt of attempts)
        if (sharedLedger || !carriable(attempt))
            return false;
    return true;
}
/** The `handOverAttempts` the old run sends before it continues as new: one per worker stop queue. */
function handOverRequests(attempts) {
    return (0, stop_channel_1.stopsByQueue)([...attempts].map((a) => ({ queue: a.stopQueue, leaseId: a.leaseId })));
}
/**
 * How long a worker keeps a handed-over executor waiting for the next run's adopt, and how long
 * the adopt may wait for that worker to pick it up: the lease TTL, and never under 30 s (a new
 * run's first workflow task on a busy server). Past it the worker kills the executor and the run
 * counts the lease lost, so the attempt never outlives its lease by more than this.
 */
exports.ADOPT_WITHIN_MIN_MS = 30_000;
function adoptWithinMs(ttlMs) {
    return Math.max(ttlMs, exports.ADOPT_WITHIN_MIN_MS);
}
/** The failure type of an adopt that found no such attempt on its worker (restarted, or it gave up waiting). */
exports.ATTEMPT_GONE = 'TeamAttemptGone';
/**
 * What an adopt's outcome means for its attempt. An adopt settles the task exactly as the attempt's
 * runTask would, except: its worker no longer had the attempt (`ATTEMPT_GONE`), or nobody picked
 * the adopt up in time (`timedOut`): the attempt's outcome is unknown, a lost lease; and an adopt
 * cancelled before it started was stopped by the run, but the attempt had started long before: a
 * cancellation (the stop on its worker's queue ends the executor), never "not started".
 */
function adoptOutcome(outcome, timedOut) {
    if (timedOut)
        return outcome.kind === 'lease-lost' ? outcome : { kind: 'lease-lost' };
    if (outcome.kind === 'failed' && outcome.errorType === exports.ATTEMPT_GONE)
        return { kind: 'lease-lost' };
    if (outcome.kind === 'not-started')
        return { kind: 'cancelled' };
    return outcome;
}
/** The attempts a snapshot carried into this run (each still holds its lease), to adopt. */
function adoptions(run) {
    const out = [];
    for (const key of run.leases.keys()) {
        const i = run.graph.indexOf(key);
        const attempt = run.leases.get(key);
        // Only announced attempts are carried (`carriable`); any other is not this run's to adopt.
        if (attempt.stopQueue === undefined)
            continue;
        const spec = run.spec(i);
        const carried = { ...attempt, stopQueue: attempt.stopQueue };
        out.push({ key, title: spec.title ?? key, attempt: carried, executor: spec.executor, ...(0, claims_1.leaseTimes)(run, i) });
    }
    return out;
}
