/**
 * Whether a ledger admits one more attempt: the check behind `acquire` (and its update validator, so a refused
 * acquire leaves no trace in the ledger's history). Pure; reads the ledger's snapshot as `expire(now)` would see
 * it: expired slots free, a new window fresh.
 */
import type { AcquireVerdict } from '../contract';
import type { AcquireRequest } from '../plan/requests/ledger';
import { type LedgerSlot, type LedgerSnapshot } from './state';
export declare const USD_EPSILON = 1e-9;
/** Why `acquire` would refuse `request` at `now`; null when it fits. */
export declare function admissionRefusal(s: LedgerSnapshot, slots: LedgerSlot[], settled: ReadonlySet<string>, request: AcquireRequest, now: number): Extract<AcquireVerdict, {
    ok: false;
}> | null;
