/**
 * Owns a budget shared by many runs (the `budgetLedger` workflow's state): slots, spend, windows
 * and its own event log. Pure and clock-injected; it knows runs only by workflow id and never
 * reaches into a run's state.
 */
import type { AcquireVerdict, LedgerAbortAllVerdict, LedgerExtendVerdict, LedgerLimitReason, LedgerResolveVerdict, LedgerRegisterVerdict, LedgerStatus, LedgerUnregisterVerdict, SettleVerdict } from '../contract';
import type { AbortAllRequest, AcquireRequest, ConfigureRequest, ExtendRequest, LedgerLimits, RegisterRequest, ResolveRequest, SettleRequest, UnregisterRequest } from '../plan/requests/ledger';
import { type LedgerSlot, type LedgerSnapshot } from './state';
export type { AcquireVerdict, LedgerLimitReason, LedgerStatus, SettleVerdict };
export type { LedgerSlot, LedgerSnapshot } from './state';
/** Why a cascade abort happened: the payload of the `abortRun` the ledger sends. */
export declare const SESSION_BUDGET_EXHAUSTED = "session-budget-exhausted";
/**
 * A budget shared by many team runs: concurrent attempts, tokens and dollars, optionally per
 * window. Pure and deterministic (the caller passes the time); the `budgetLedger` workflow
 * turns its verdicts into Temporal calls. `snapshot()` is what continue-as-new carries.
 */
export declare class Ledger {
    /** Bumped on every change that can move the next deadline earlier or matters to a waiter. */
    version: number;
    private readonly s;
    private readonly slots;
    private readonly runs;
    private readonly settled;
    private readonly events;
    static create(id: string, limits: LedgerLimits, now: number): Ledger;
    constructor(snapshot: LedgerSnapshot);
    get id(): string;
    get limits(): LedgerLimits;
    /**
     * Why `configure` would refuse these limits: each limit it loosens, unless an operator forces it (`force` with
     * the `actor` who does). Null when it may apply.
     */
    checkConfigure(request: ConfigureRequest): string | null;
    /**
     * Replaces the limits (an operator's `ledger create` on an existing ledger); a forced loosening is recorded with
     * who forced it.
     */
    configure(request: ConfigureRequest, now: number): void;
    register(request: RegisterRequest, now: number): LedgerRegisterVerdict;
    unregister(request: UnregisterRequest, now: number, why?: string): LedgerUnregisterVerdict;
    /**
     * Takes a slot and a reservation for one attempt. Idempotent by attempt id: a retried
     * acquire of an attempt that holds a slot gets the same slot back.
     */
    acquire(request: AcquireRequest, now: number): AcquireVerdict;
    /**
     * Why `acquire` would refuse this request at `now`, without changing anything (update
     * validators use it, so a refused acquire leaves no trace in the ledger's history); null when
     * it fits.
     */
    check(request: AcquireRequest, now: number): Extract<AcquireVerdict, {
        ok: false;
    }> | null;
    /** Why `extend` would refuse, without changing anything (the update's validator); null when it fits. */
    checkExtend(request: ExtendRequest, now: number): Extract<LedgerExtendVerdict, {
        ok: false;
    }> | null;
    /** Grows a running attempt's slot by what its run granted it more, if the limits allow; once per extension id. */
    extend(request: ExtendRequest, now: number): LedgerExtendVerdict;
    /** Extends a slot's lease; false when the attempt holds none (settled, expired, unknown). */
    renew(attemptId: string, now: number): boolean;
    /**
     * Charges an attempt's actual usage and releases its slot and reservation. Idempotent by
     * attempt id: a retried settle charges nothing. A settle after the slot expired still
     * charges (the usage was real).
     */
    settle(request: SettleRequest, now: number): SettleVerdict;
    /**
     * Settles every lost attempt (an operator's `teamrun ledger resolve`): the usage recorded, or their reservations
     * as the charge; admission then resumes. Null when no attempt waits for recovery.
     */
    resolve(request: ResolveRequest, now: number): {
        verdict: LedgerResolveVerdict;
        abort: string[];
    } | null;
    /**
     * Adds a charge to what is used; one that crosses a hard limit exhausts the ledger and aborts every run on it.
     * Unpriced usage while `maxUsd` is set exhausts it too (the dollars are unknown), but aborts nothing: attempts in
     * flight settle, as a run's own budget lets them.
     */
    private charge;
    private crossed;
    private release;
    private remember;
    /**
     * Moves the clock: a new window starts (usage and exhaustion reset) and slots whose lease
     * ran out are freed. Every operation calls it first, so timers only decide when, not what.
     */
    expire(now: number): {
        expired: LedgerSlot[];
        windowReset: boolean;
    };
    /** When `expire` next has something to do: the earliest slot expiry or window reset. */
    nextDeadline(): number | null;
    /** An operator stops every registered run now; the ledger stays open for new ones. */
    abortAll(request: AbortAllRequest, now: number): LedgerAbortAllVerdict;
    private abortTargets;
    /** A run the ledger could not reach (it no longer exists) is forgotten. */
    forget(workflowId: string, now: number): void;
    status(now: number): LedgerStatus;
    snapshot(): LedgerSnapshot;
    private touch;
}
