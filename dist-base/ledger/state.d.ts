/**
 * The shared ledger's state as continue-as-new carries it (its snapshot and slots), and the
 * `status` view built from it. Shapes and one pure view; the rules are rules.ts's.
 */
import type { LedgerExhaustion, LedgerRecovery, LedgerResolution, LedgerStatus } from '../contract';
import type { EventLogSnapshot } from '../team/events';
import type { LedgerLimits } from '../plan/requests/ledger';
import type { Reservation, RunEvent } from '../team/types';
/** One attempt holding a slot; it lives while renewed, so a dead run cannot hold it for ever. */
export interface LedgerSlot {
    attemptId: string;
    workflowId: string;
    reservation: Reservation;
    leaseMs: number;
    acquiredAt: number;
    expiresAt: number;
    /** The newest extensions that grew `reservation`, by id (absent in older snapshots: none). */
    extensions?: string[];
}
export interface LedgerSnapshot {
    id: string;
    limits: LedgerLimits;
    createdAt: number;
    windowStartedAt: number;
    used: {
        tokens: number;
        usd: number;
        attempts: number;
    };
    reserved: Reservation;
    slots: LedgerSlot[];
    runs: Array<{
        workflowId: string;
        name: string | null;
        registeredAt: number;
    }>;
    /** Attempts already settled, oldest first (bounded): a second settle of one charges nothing. */
    settled: string[];
    /** Set when a charge crossed a hard limit; cleared when the window resets. */
    exhausted: {
        reason: LedgerExhaustion;
        at: number;
    } | null;
    /** Lost attempts waiting for an operator (absent in older snapshots: none). */
    recovery?: LedgerRecovery | null;
    lastResolution?: LedgerResolution | null;
    counters: {
        acquired: number;
        settled: number;
        duplicateSettles: number;
        expired: number;
    };
    lastAbort: {
        reason: string;
        actor: string;
        at: number;
        runs: string[];
    } | null;
    events: EventLogSnapshot;
}
/** The `status` query: limits, what is used, reserved and left, the slots and runs, the newest events. */
export declare function ledgerStatus(s: LedgerSnapshot, slots: LedgerSlot[], runs: LedgerSnapshot['runs'], events: RunEvent[], now: number): LedgerStatus;
export declare const round: (usd: number) => number;
