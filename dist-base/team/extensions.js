"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateExtend = validateExtend;
exports.extend = extend;
exports.withdraw = withdraw;
const budget_1 = require("../plan/requests/budget");
const caller_1 = require("../plan/requests/caller");
const control_1 = require("../plan/requests/control");
const budget_2 = require("./budget");
const governance_1 = require("./governance");
const MESSAGE = 'extendReservation';
/** Every check, for the update's validator: a refused extension never reaches history. Throws `TeamControlError`. */
function validateExtend(run, payload) {
    const { request } = check(run, payload);
    const refused = new budget_2.Budget(run.budget.snapshot()).extend(request);
    if (!refused.ok)
        throw refusal(request, refused.reason);
    return request;
}
/** Grants the extension; the answer is what the attempt holds now. */
function extend(run, payload, now) {
    const { request, attempt } = check(run, payload);
    const granted = run.budget.extend(request);
    if (!granted.ok)
        throw refusal(request, granted.reason);
    const { tokens, usd } = granted.extension;
    attempt.reservation = { tokens: attempt.reservation.tokens + tokens, usd: sum(attempt.reservation.usd, usd) };
    run.events.record('budget:reservation-extended', now, {
        key: request.key,
        fencingToken: attempt.fencingToken,
        tokens,
        usd,
        reservation: attempt.reservation,
    });
    run.touch();
    return { ok: true, granted: { ...attempt.reservation } };
}
/**
 * The shared ledger refused an extension the run had granted: the run gives it back, unless the
 * attempt settled meanwhile (its settlement released the whole reservation already).
 */
function withdraw(run, key, fencingToken, extension) {
    const attempt = run.leases.get(key);
    if (!attempt || attempt.fencingToken !== fencingToken)
        return;
    attempt.reservation = {
        tokens: Math.max(0, attempt.reservation.tokens - extension.tokens),
        usd: Math.max(0, sum(attempt.reservation.usd, -extension.usd)),
    };
    run.budget.release(extension);
    run.touch();
}
function check(run, payload) {
    const caller = (0, caller_1.callerOf)(payload, MESSAGE);
    const request = (0, control_1.parseControl)(budget_1.ExtendReservationSchema, caller.request, MESSAGE);
    if (run.graph.indexOf(request.key) === undefined)
        throw new control_1.TeamControlError('not_found', `${MESSAGE}: no task "${request.key}"`);
    const attempt = run.leases.get(request.key);
    // A stopped attempt is on its way out: it spends nothing more.
    if (!attempt || attempt.fencingToken !== request.fencingToken || attempt.stop) {
        throw new control_1.TeamControlError('stale_attempt', `${MESSAGE}: "${request.key}" has no live attempt with fencing token ${request.fencingToken}` +
            (attempt ? ` (the live one is ${attempt.fencingToken}${attempt.stop ? ', stopped' : ''})` : ''));
    }
    (0, governance_1.checkTaskClaim)(run.plan, caller, MESSAGE);
    return { request, attempt };
}
function refusal(request, reason) {
    return new control_1.TeamControlError(reason, `${MESSAGE}: the run's budget cannot grant "${request.key}" ${request.tokens ?? 0} more tokens and ` +
        `$${request.usd ?? 0} (${reason})`);
}
const sum = (a, b) => Math.round((a + b) * 1e9) / 1e9;
