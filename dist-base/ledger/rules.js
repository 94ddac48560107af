"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Ledger = exports.SESSION_BUDGET_EXHAUSTED = void 0;
const budget_1 = require("../team/budget");
const events_1 = require("../team/events");
const limits_1 = require("./limits");
const admission_1 = require("./admission");
const extension_1 = require("./extension");
const recovery_1 = require("./recovery");
const state_1 = require("./state");
/** Why a cascade abort happened: the payload of the `abortRun` the ledger sends. */
exports.SESSION_BUDGET_EXHAUSTED = 'session-budget-exhausted';
const SETTLED_MEMORY = 10_000;
/**
 * A budget shared by many team runs: concurrent attempts, tokens and dollars, optionally per
 * window. Pure and deterministic (the caller passes the time); the `budgetLedger` workflow
 * turns its verdicts into Temporal calls. `snapshot()` is what continue-as-new carries.
 */
class Ledger {
    /** Bumped on every change that can move the next deadline earlier or matters to a waiter. */
    version = 0;
    s;
    slots = new Map();
    runs = new Map();
    settled = new Set();
    events;
    static create(id, limits, now) {
        const ledger = new Ledger({
            id,
            limits,
            createdAt: now,
            windowStartedAt: now,
            used: { tokens: 0, usd: 0, attempts: 0 },
            reserved: { tokens: 0, usd: 0 },
            slots: [],
            runs: [],
            settled: [],
            exhausted: null,
            counters: { acquired: 0, settled: 0, duplicateSettles: 0, expired: 0 },
            lastAbort: null,
            events: { nextSeq: 1, events: [] },
        });
        ledger.events.record('ledger:created', now, { limits });
        return ledger;
    }
    constructor(snapshot) {
        this.s = JSON.parse(JSON.stringify(snapshot));
        for (const slot of this.s.slots)
            this.slots.set(slot.attemptId, slot);
        for (const run of this.s.runs)
            this.runs.set(run.workflowId, run);
        for (const id of this.s.settled)
            this.settled.add(id);
        this.events = new events_1.EventLog(this.s.events, 200);
    }
    get id() {
        return this.s.id;
    }
    get limits() {
        return this.s.limits;
    }
    /**
     * Why `configure` would refuse these limits: each limit it loosens, unless an operator forces it (`force` with
     * the `actor` who does). Null when it may apply.
     */
    checkConfigure(request) {
        const loosened = (0, limits_1.loosenings)(this.s.limits, request.limits);
        if (!loosened.length)
            return null;
        if (request.force && request.actor)
            return null;
        const how = request.force ? 'force needs the actor who forces it' : 'only an operator may loosen, with force';
        return `ledger ${this.id}: the new limits loosen ${loosened.join(', ')}; limits only tighten (${how})`;
    }
    /**
     * Replaces the limits (an operator's `ledger create` on an existing ledger); a forced loosening is recorded with
     * who forced it.
     */
    configure(request, now) {
        const refusal = this.checkConfigure(request);
        if (refusal)
            throw new Error(refusal);
        this.expire(now);
        const { limits } = request;
        const loosened = (0, limits_1.loosenings)(this.s.limits, limits);
        const windowChanged = limits.windowMs !== this.s.limits.windowMs;
        this.s.limits = limits;
        if (windowChanged)
            this.s.windowStartedAt = now;
        this.events.record('ledger:configured', now, {
            limits,
            ...(loosened.length ? { loosened, forcedBy: request.actor } : {}),
            ...(request.actor ? { actor: request.actor } : {}),
        });
        this.touch();
    }
    // ---- runs -------------------------------------------------------------------------------
    register(request, now) {
        this.expire(now);
        const exhausted = this.s.exhausted?.reason ?? null;
        if (this.runs.has(request.workflowId))
            return { ok: true, idempotent: true, exhausted };
        this.runs.set(request.workflowId, {
            workflowId: request.workflowId,
            name: request.name ?? null,
            registeredAt: now,
        });
        this.events.record('run:registered', now, { workflowId: request.workflowId });
        this.touch();
        return { ok: true, exhausted };
    }
    unregister(request, now, why = 'run:unregistered') {
        if (!this.runs.delete(request.workflowId))
            return { ok: true, idempotent: true };
        this.events.record(why, now, { workflowId: request.workflowId });
        this.touch();
        return { ok: true };
    }
    // ---- slots ------------------------------------------------------------------------------
    /**
     * Takes a slot and a reservation for one attempt. Idempotent by attempt id: a retried
     * acquire of an attempt that holds a slot gets the same slot back.
     */
    acquire(request, now) {
        this.expire(now);
        const { attemptId, reservation } = request;
        const held = this.slots.get(attemptId);
        if (held) {
            held.expiresAt = now + held.leaseMs;
            return { ok: true, idempotent: true, expiresAt: held.expiresAt };
        }
        const refusal = this.check(request, now);
        if (refusal)
            return refusal;
        const slot = {
            attemptId,
            workflowId: request.workflowId,
            reservation: { ...reservation },
            leaseMs: request.leaseMs,
            acquiredAt: now,
            expiresAt: now + request.leaseMs,
        };
        this.slots.set(attemptId, slot);
        this.s.reserved.tokens += reservation.tokens;
        this.s.reserved.usd += reservation.usd;
        this.s.used.attempts += 1;
        this.s.counters.acquired += 1;
        this.touch();
        return { ok: true, expiresAt: slot.expiresAt };
    }
    /**
     * Why `acquire` would refuse this request at `now`, without changing anything (update
     * validators use it, so a refused acquire leaves no trace in the ledger's history); null when
     * it fits.
     */
    check(request, now) {
        return (0, admission_1.admissionRefusal)(this.s, [...this.slots.values()], this.settled, request, now);
    }
    /** Why `extend` would refuse, without changing anything (the update's validator); null when it fits. */
    checkExtend(request, now) {
        return (0, extension_1.extensionRefusal)(this.s, [...this.slots.values()], request, now);
    }
    /** Grows a running attempt's slot by what its run granted it more, if the limits allow; once per extension id. */
    extend(request, now) {
        this.expire(now);
        const refusal = this.checkExtend(request, now);
        if (refusal)
            return refusal;
        const slot = this.slots.get(request.attemptId);
        const idempotent = !(0, extension_1.growSlot)(this.s, slot, request);
        if (!idempotent)
            this.touch();
        return { ok: true, ...(idempotent ? { idempotent: true } : {}), reservation: { ...slot.reservation } };
    }
    /** Extends a slot's lease; false when the attempt holds none (settled, expired, unknown). */
    renew(attemptId, now) {
        const slot = this.slots.get(attemptId);
        if (!slot || slot.expiresAt <= now)
            return false;
        slot.expiresAt = now + slot.leaseMs;
        return true;
    }
    /**
     * Charges an attempt's actual usage and releases its slot and reservation. Idempotent by
     * attempt id: a retried settle charges nothing. A settle after the slot expired still
     * charges (the usage was real).
     */
    settle(request, now) {
        this.expire(now);
        const { attemptId } = request;
        if (this.settled.has(attemptId)) {
            this.s.counters.duplicateSettles += 1;
            this.touch();
            return { ok: true, duplicate: true, charged: { tokens: 0, usd: 0 }, crossed: null, abort: [] };
        }
        const slot = this.slots.get(attemptId);
        if (slot)
            this.release(slot);
        this.s.counters.settled += 1;
        this.remember(attemptId);
        const { maxTokens, maxUsd } = this.s.limits;
        if (request.lost && (maxTokens !== undefined || maxUsd !== undefined)) {
            // Unknown usage that a spend limit cannot count: what it held stays held, admission waits for an operator.
            (0, recovery_1.recordLost)(this.s, this.events, { attemptId, ...request.lost }, now, slot?.reservation);
            this.touch();
            return { ok: true, duplicate: false, charged: { tokens: 0, usd: 0 }, crossed: null, abort: [] };
        }
        // Without a spend limit a lost attempt is charged its reservation, as a run's own budget charges it.
        const charged = request.lost
            ? { ...request.lost.reservation }
            : { tokens: (0, budget_1.usageTokens)(request.usage), usd: request.usage?.costUsd ?? 0 };
        const { crossed, abort } = this.charge(charged, (0, budget_1.isUnpriced)(request.usage), attemptId, now);
        this.touch();
        return { ok: true, duplicate: false, charged, crossed, abort };
    }
    /**
     * Settles every lost attempt (an operator's `teamrun ledger resolve`): the usage recorded, or their reservations
     * as the charge; admission then resumes. Null when no attempt waits for recovery.
     */
    resolve(request, now) {
        this.expire(now);
        const resolution = (0, recovery_1.resolveLost)(this.s, this.events, request, now);
        if (!resolution)
            return null;
        const { abort } = this.charge(resolution.charged, (0, budget_1.isUnpriced)(request.usage), null, now);
        this.touch();
        return { verdict: { ok: true, resolution }, abort };
    }
    /**
     * Adds a charge to what is used; one that crosses a hard limit exhausts the ledger and aborts every run on it.
     * Unpriced usage while `maxUsd` is set exhausts it too (the dollars are unknown), but aborts nothing: attempts in
     * flight settle, as a run's own budget lets them.
     */
    charge(charged, unpriced, attemptId, now) {
        this.s.used.tokens += charged.tokens;
        this.s.used.usd += charged.usd;
        const crossed = this.crossed(unpriced);
        if (!crossed)
            return { crossed, abort: [] };
        this.s.exhausted = { reason: crossed, at: now };
        this.events.record('ledger:limit-crossed', now, { reason: crossed, attemptId, used: { ...this.s.used } });
        if (crossed === 'unpriced-usage')
            return { crossed, abort: [] };
        return { crossed, abort: this.abortTargets(exports.SESSION_BUDGET_EXHAUSTED, `ledger:${this.id}`, now) };
    }
    crossed(unpriced) {
        const { limits, used, exhausted } = this.s;
        if (exhausted)
            return null;
        if (limits.maxTokens !== undefined && used.tokens > limits.maxTokens)
            return 'max-tokens';
        if (limits.maxUsd !== undefined && used.usd > limits.maxUsd + admission_1.USD_EPSILON)
            return 'max-usd';
        if (limits.maxUsd !== undefined && unpriced)
            return 'unpriced-usage';
        return null;
    }
    release(slot) {
        this.slots.delete(slot.attemptId);
        this.s.reserved.tokens = Math.max(0, this.s.reserved.tokens - slot.reservation.tokens);
        this.s.reserved.usd = Math.max(0, this.s.reserved.usd - slot.reservation.usd);
    }
    remember(attemptId) {
        this.settled.add(attemptId);
        this.s.settled.push(attemptId);
        if (this.s.settled.length > SETTLED_MEMORY) {
            for (const old of this.s.settled.splice(0, this.s.settled.length - SETTLED_MEMORY))
                this.settled.delete(old);
        }
    }
    /**
     * Moves the clock: a new window starts (usage and exhaustion reset) and slots whose lease
     * ran out are freed. Every operation calls it first, so timers only decide when, not what.
     */
    expire(now) {
        let windowReset = false;
        const windowMs = this.s.limits.windowMs;
        if (windowMs !== undefined && now >= this.s.windowStartedAt + windowMs) {
            this.s.windowStartedAt += Math.floor((now - this.s.windowStartedAt) / windowMs) * windowMs;
            this.events.record('ledger:window-reset', now, {
                previous: { ...this.s.used },
                windowStartedAt: this.s.windowStartedAt,
            });
            this.s.used = { tokens: 0, usd: 0, attempts: 0 };
            this.s.exhausted = null;
            windowReset = true;
        }
        const expired = [];
        for (const slot of this.slots.values()) {
            if (slot.expiresAt > now)
                continue;
            expired.push(slot);
            this.release(slot);
            this.s.counters.expired += 1;
            this.events.record('slot:expired', now, {
                attemptId: slot.attemptId,
                workflowId: slot.workflowId,
                expiresAt: slot.expiresAt,
            });
        }
        if (windowReset || expired.length)
            this.touch();
        return { expired, windowReset };
    }
    /** When `expire` next has something to do: the earliest slot expiry or window reset. */
    nextDeadline() {
        let next = null;
        for (const slot of this.slots.values())
            if (next === null || slot.expiresAt < next)
                next = slot.expiresAt;
        const windowMs = this.s.limits.windowMs;
        if (windowMs !== undefined) {
            const reset = this.s.windowStartedAt + windowMs;
            if (next === null || reset < next)
                next = reset;
        }
        return next;
    }
    // ---- cascade abort ----------------------------------------------------------------------
    /** An operator stops every registered run now; the ledger stays open for new ones. */
    abortAll(request, now) {
        this.expire(now);
        const runs = this.abortTargets(request.reason ?? exports.SESSION_BUDGET_EXHAUSTED, request.actor ?? `ledger:${this.id}`, now);
        this.touch();
        return { ok: true, runs };
    }
    abortTargets(reason, actor, now) {
        const runs = [...this.runs.keys()];
        this.s.lastAbort = { reason, actor, at: now, runs };
        this.events.record('ledger:abort-all', now, { reason, actor, runs });
        return runs;
    }
    /** A run the ledger could not reach (it no longer exists) is forgotten. */
    forget(workflowId, now) {
        this.unregister({ workflowId }, now, 'run:unreachable');
    }
    // ---- views ------------------------------------------------------------------------------
    status(now) {
        return (0, state_1.ledgerStatus)(this.s, [...this.slots.values()], [...this.runs.values()], this.events.snapshot().events, now);
    }
    snapshot() {
        return JSON.parse(JSON.stringify({
            ...this.s,
            slots: [...this.slots.values()],
            runs: [...this.runs.values()],
            events: this.events.snapshot(),
        }));
    }
    touch() {
        this.version += 1;
    }
}
exports.Ledger = Ledger;
