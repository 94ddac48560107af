/**
 * The run's budget: reservations before a claim, charges when an attempt settles, the stop
 * reason, and the `budget` view (shape declared in src/contract). Owns its snapshot slice; knows
 * nothing of tasks, leases or the clock beyond the times it is given.
 */
import type { BudgetView } from '../contract';
import type { BudgetLimits } from '../plan/schema';
import { TIGHTENED_LIMITS } from '../plan/requests/control';
import type { BudgetReason, ReportedUsage, Reservation } from './types';
/** The limits `tightenBudget` may lower. */
export type TightenedLimits = Partial<Record<(typeof TIGHTENED_LIMITS)[number], number>>;
export type { BudgetView };
export interface BudgetSnapshot {
    limits: BudgetLimits;
    used: {
        tasks: number;
        tokens: number;
        usd: number;
    };
    reserved: {
        tokens: number;
        usd: number;
    };
    inFlight: number;
    stopped: boolean;
    reason: BudgetReason | null;
    /**
     * An attempt's outcome, and with it its usage, was lost: `used` counts at least its reservation. Absent in older
     * snapshots.
     */
    usageUnknown?: boolean;
}
export type ReserveResult = {
    ok: true;
    reservation: Reservation;
} | {
    ok: false;
    reason: BudgetReason;
};
export type ExtendResult = {
    ok: true;
    extension: Reservation;
} | {
    ok: false;
    reason: BudgetReason;
};
export type ChargeResult = {
    ok: true;
    tokens: number;
    usd: number;
} | {
    ok: false;
    reason: 'unpriced-usage';
};
export declare function usageTokens(usage: ReportedUsage | null | undefined): number;
/** Usage with tokens (or a model) but no price: while `maxUsd` is set it cannot be trusted to fit. */
export declare function isUnpriced(usage: ReportedUsage | null | undefined): boolean;
/**
 * The run's budget: a reservation is taken before an attempt is claimed (no reservation,
 * no claim) and released when it settles, when its actual usage is charged instead.
 */
export declare class Budget {
    private readonly s;
    constructor(snapshot: BudgetSnapshot);
    static create(limits: BudgetLimits): Budget;
    get stopped(): boolean;
    get reason(): BudgetReason | null;
    get limits(): BudgetLimits;
    /**
     * Reserves one attempt: its estimate, or a fair share of what remains
     * (`ceil(remaining / freeSlots)`), so that many teammates together cannot overspend.
     * `freeSlots` counts the slot this attempt would take.
     */
    reserve(estimate: {
        tokens?: number;
        usd?: number;
    } | undefined, freeSlots: number): ReserveResult;
    /**
     * Extends a running attempt's reservation by `ask`, all of it or nothing: what remains once usage and every
     * reservation are counted must cover it. The caller adds the extension to the attempt's reservation, so that
     * settlement releases both. A stopped budget grants nothing more.
     */
    extend(ask: {
        tokens?: number;
        usd?: number;
    }): ExtendResult;
    /** Gives back an extension the run granted and the shared ledger then refused. */
    release(extension: Reservation): void;
    /**
     * Releases an attempt's reservation and charges what it reported, truthfully, even past a limit.
     * Usage with tokens but no price while `maxUsd` is set cannot be trusted to fit: it fails closed.
     */
    settle(reservation: Reservation, usage: ReportedUsage | null | undefined): ChargeResult;
    /**
     * Settles an attempt whose outcome was lost (its lease expired): what it used is unknown, so
     * it is charged at least its reservation, and the budget says its usage is unknown.
     */
    settleUnknown(reservation: Reservation): {
        tokens: number;
        usd: number;
    };
    /** Whether a token or dollar limit is set: then usage that cannot be known stops the run. */
    get limitsSpend(): boolean;
    /** Undoes the reservation of an attempt that never started: it is not counted as an execution. */
    cancel(reservation: Reservation): void;
    /** The limits `next` would loosen (raise), as `maxUsd 5 -> 10`; empty when it only tightens or adds limits. */
    loosenings(next: TightenedLimits): string[];
    /**
     * Lowers limits while the run runs (`tightenBudget`). Returns the reason the run must stop now: a new limit that
     * leaves nothing for another attempt (at or below what is used, or the wall time already past).
     */
    tighten(next: TightenedLimits, wallMs: number): BudgetReason | null;
    stop(reason: BudgetReason): boolean;
    view(now: number, startedAt: number): BudgetView;
    snapshot(): BudgetSnapshot;
}
