"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Budget = void 0;
exports.usageTokens = usageTokens;
exports.isUnpriced = isUnpriced;
const control_1 = require("../plan/requests/control");
/** Fair shares of dollars are rounded up to a micro-dollar. */
const USD_STEP = 1e-6;
const ceilUsd = (usd) => Math.ceil(usd / USD_STEP - 1e-6) / 1e6;
/** Dollar sums are kept to the nano-dollar (the price table's precision), so float error never accumulates. */
const sumUsd = (a, b) => Math.round((a + b) * 1e9) / 1e9;
function usageTokens(usage) {
    if (!usage)
        return 0;
    return (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0) + (usage.cacheTokens ?? 0);
}
/** Usage with tokens (or a model) but no price: while `maxUsd` is set it cannot be trusted to fit. */
function isUnpriced(usage) {
    if (!usage)
        return false;
    return ((usage.unpricedTokens ?? 0) > 0 ||
        (usage.costUsd === undefined && (usageTokens(usage) > 0 || usage.model !== undefined)));
}
/**
 * The run's budget: a reservation is taken before an attempt is claimed (no reservation,
 * no claim) and released when it settles, when its actual usage is charged instead.
 */
class Budget {
    s;
    constructor(snapshot) {
        this.s = structuredCloneish(snapshot);
    }
    static create(limits) {
        return new Budget({
            limits,
            used: { tasks: 0, tokens: 0, usd: 0 },
            reserved: { tokens: 0, usd: 0 },
            inFlight: 0,
            stopped: false,
            reason: null,
        });
    }
    get stopped() {
        return this.s.stopped;
    }
    get reason() {
        return this.s.reason;
    }
    get limits() {
        return this.s.limits;
    }
    /**
     * Reserves one attempt: its estimate, or a fair share of what remains
     * (`ceil(remaining / freeSlots)`), so that many teammates together cannot overspend.
     * `freeSlots` counts the slot this attempt would take.
     */
    reserve(estimate, freeSlots) {
        const { limits, used, reserved } = this.s;
        if (limits.maxTasks !== undefined && used.tasks + 1 > limits.maxTasks)
            return { ok: false, reason: 'max-tasks' };
        let tokens = estimate?.tokens ?? 0;
        if (limits.maxTokens !== undefined) {
            const remaining = limits.maxTokens - used.tokens - reserved.tokens;
            if (estimate?.tokens === undefined)
                tokens = Math.ceil(remaining / Math.max(1, freeSlots));
            if (remaining <= 0 || tokens > remaining)
                return { ok: false, reason: 'max-tokens' };
        }
        let usd = estimate?.usd ?? 0;
        if (limits.maxUsd !== undefined) {
            const remaining = sumUsd(limits.maxUsd, -sumUsd(used.usd, reserved.usd));
            if (estimate?.usd === undefined)
                usd = ceilUsd(remaining / Math.max(1, freeSlots));
            if (remaining <= USD_STEP / 2 || usd > remaining + USD_STEP / 2)
                return { ok: false, reason: 'max-usd' };
            usd = Math.min(usd, remaining);
        }
        used.tasks += 1;
        reserved.tokens += tokens;
        reserved.usd = sumUsd(reserved.usd, usd);
        this.s.inFlight += 1;
        return { ok: true, reservation: { tokens, usd } };
    }
    /**
     * Extends a running attempt's reservation by `ask`, all of it or nothing: what remains once usage and every
     * reservation are counted must cover it. The caller adds the extension to the attempt's reservation, so that
     * settlement releases both. A stopped budget grants nothing more.
     */
    extend(ask) {
        const { limits, used, reserved } = this.s;
        if (this.s.stopped)
            return { ok: false, reason: this.s.reason ?? 'max-tokens' };
        const tokens = ask.tokens ?? 0;
        const usd = ask.usd ?? 0;
        if (limits.maxTokens !== undefined && tokens > limits.maxTokens - used.tokens - reserved.tokens)
            return { ok: false, reason: 'max-tokens' };
        if (limits.maxUsd !== undefined && usd > sumUsd(limits.maxUsd, -sumUsd(used.usd, reserved.usd)) + USD_STEP / 2)
            return { ok: false, reason: 'max-usd' };
        reserved.tokens += tokens;
        reserved.usd = sumUsd(reserved.usd, usd);
        return { ok: true, extension: { tokens, usd } };
    }
    /** Gives back an extension the run granted and the shared ledger then refused. */
    release(extension) {
        const { reserved } = this.s;
        reserved.tokens = Math.max(0, reserved.tokens - extension.tokens);
        reserved.usd = Math.max(0, sumUsd(reserved.usd, -extension.usd));
    }
    /**
     * Releases an attempt's reservation and charges what it reported, truthfully, even past a limit.
     * Usage with tokens but no price while `maxUsd` is set cannot be trusted to fit: it fails closed.
     */
    settle(reservation, usage) {
        const { used, reserved, limits } = this.s;
        reserved.tokens = Math.max(0, reserved.tokens - reservation.tokens);
        reserved.usd = Math.max(0, sumUsd(reserved.usd, -reservation.usd));
        this.s.inFlight = Math.max(0, this.s.inFlight - 1);
        const tokens = usageTokens(usage);
        const usd = usage?.costUsd ?? 0;
        used.tokens += tokens;
        used.usd = sumUsd(used.usd, usd);
        if (limits.maxUsd !== undefined && isUnpriced(usage))
            return { ok: false, reason: 'unpriced-usage' };
        return { ok: true, tokens, usd };
    }
    /**
     * Settles an attempt whose outcome was lost (its lease expired): what it used is unknown, so
     * it is charged at least its reservation, and the budget says its usage is unknown.
     */
    settleUnknown(reservation) {
        const { used, reserved } = this.s;
        reserved.tokens = Math.max(0, reserved.tokens - reservation.tokens);
        reserved.usd = Math.max(0, sumUsd(reserved.usd, -reservation.usd));
        this.s.inFlight = Math.max(0, this.s.inFlight - 1);
        used.tokens += reservation.tokens;
        used.usd = sumUsd(used.usd, reservation.usd);
        this.s.usageUnknown = true;
        return { tokens: reservation.tokens, usd: reservation.usd };
    }
    /** Whether a token or dollar limit is set: then usage that cannot be known stops the run. */
    get limitsSpend() {
        return this.s.limits.maxTokens !== undefined || this.s.limits.maxUsd !== undefined;
    }
    /** Undoes the reservation of an attempt that never started: it is not counted as an execution. */
    cancel(reservation) {
        const { used, reserved } = this.s;
        used.tasks = Math.max(0, used.tasks - 1);
        reserved.tokens = Math.max(0, reserved.tokens - reservation.tokens);
        reserved.usd = Math.max(0, sumUsd(reserved.usd, -reservation.usd));
        this.s.inFlight = Math.max(0, this.s.inFlight - 1);
    }
    /** The limits `next` would loosen (raise), as `maxUsd 5 -> 10`; empty when it only tightens or adds limits. */
    loosenings(next) {
        const { limits } = this.s;
        return control_1.TIGHTENED_LIMITS.flatMap((name) => {
            const was = limits[name];
            const now = next[name];
            return was !== undefined && now !== undefined && now > was ? [`${name} ${was} -> ${now}`] : [];
        });
    }
    /**
     * Lowers limits while the run runs (`tightenBudget`). Returns the reason the run must stop now: a new limit that
     * leaves nothing for another attempt (at or below what is used, or the wall time already past).
     */
    tighten(next, wallMs) {
        const { limits, used } = this.s;
        for (const name of control_1.TIGHTENED_LIMITS)
            if (next[name] !== undefined)
                limits[name] = next[name];
        if (limits.maxWallMs !== undefined && wallMs >= limits.maxWallMs)
            return 'max-wall-ms';
        if (limits.maxTasks !== undefined && used.tasks >= limits.maxTasks)
            return 'max-tasks';
        if (limits.maxTokens !== undefined && used.tokens >= limits.maxTokens)
            return 'max-tokens';
        if (limits.maxUsd !== undefined && used.usd >= limits.maxUsd - USD_STEP / 2)
            return 'max-usd';
        return null;
    }
    stop(reason) {
        if (this.s.stopped)
            return false;
        this.s.stopped = true;
        this.s.reason = reason;
        return true;
    }
    view(now, startedAt) {
        const { limits, used, reserved, stopped, reason } = this.s;
        const wallMs = Math.max(0, now - startedAt);
        const left = (max, spent) => (max === undefined ? null : Math.max(0, max - spent));
        return {
            limits,
            used: { tasks: used.tasks, tokens: used.tokens, usd: roundUsd(used.usd), wallMs },
            reserved: { tokens: reserved.tokens, usd: roundUsd(reserved.usd) },
            remaining: {
                tasks: left(limits.maxTasks, used.tasks),
                tokens: left(limits.maxTokens, used.tokens + reserved.tokens),
                usd: limits.maxUsd === undefined ? null : roundUsd(Math.max(0, limits.maxUsd - used.usd - reserved.usd)),
                wallMs: left(limits.maxWallMs, wallMs),
            },
            stopped,
            reason,
            usageUnknown: this.s.usageUnknown ?? false,
        };
    }
    snapshot() {
        return structuredCloneish(this.s);
    }
}
exports.Budget = Budget;
const roundUsd = (usd) => Math.round(usd * 1e6) / 1e6;
function structuredCloneish(value) {
    return JSON.parse(JSON.stringify(value));
}
