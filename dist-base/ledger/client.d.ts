/**
 * An operator's calls on a shared ledger (`teamrun ledger`): create or configure it, read its
 * status, resolve its lost attempts, abort every run registered with it.
 */
import type { Client } from '@temporalio/client';
import type { LedgerLimits, LedgerResolveVerdict, LedgerStatus, ResolveRequest } from '../contract';
import { type LedgerStartOptions } from './handle';
/**
 * Creates a ledger with these limits, or gives a running one these limits. Limits only tighten: a loosening is
 * refused (`loosening_refused`) unless `force` comes with the `actor` who forces it, which the ledger records.
 */
export declare function createLedger(client: Client, id: string, limits: LedgerLimits, options: LedgerStartOptions & {
    force?: boolean;
    actor?: string;
}): Promise<LedgerStatus>;
/** Settles the ledger's lost attempts (recorded usage, or their reservations released as the charge). */
export declare function resolveLedger(client: Client, id: string, request: ResolveRequest): Promise<LedgerResolveVerdict>;
export declare function ledgerStatus(client: Client, id: string): Promise<LedgerStatus>;
export declare function abortAllLedger(client: Client, id: string, request?: {
    reason?: string;
    actor?: string;
}): Promise<import("../contract").LedgerAbortAllVerdict>;
