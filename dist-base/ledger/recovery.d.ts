/**
 * A ledger's lost attempts: an attempt whose outcome was lost (its lease expired) spent an unknown amount, so the
 * ledger fails closed. Its reservation stays held, and no run starts an attempt on the ledger, until an operator
 * records the usage (`resolve` with `usage`) or accepts the reservations as the charge (`release`). Pure functions
 * over the ledger's snapshot; rules.ts calls them.
 */
import type { LedgerResolution } from '../contract';
import type { ResolveRequest } from '../plan/requests/ledger';
import type { EventLog } from '../team/events';
import type { Reservation } from '../team/types';
import type { LedgerSnapshot } from './state';
/**
 * Records a lost attempt: the ledger now requires recovery. What it held is its slot's reservation with every
 * extension when the slot is still there (`slotHeld`), even if its run told less (a run of an older version).
 */
export declare function recordLost(s: LedgerSnapshot, events: EventLog, told: {
    attemptId: string;
    workflowId: string;
    reservation: Reservation;
}, now: number, slotHeld?: Reservation): void;
/**
 * An operator resolves every lost attempt at once: `usage` is what they used together, `release` charges what they
 * held. Returns what to charge, or null when nothing waits for recovery.
 */
export declare function resolveLost(s: LedgerSnapshot, events: EventLog, request: ResolveRequest, now: number): LedgerResolution | null;
