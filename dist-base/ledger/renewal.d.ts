import type { Client } from '@temporalio/client';
import type { LedgerLease } from './activity-interface';
/**
 * Keeps an attempt's ledger slot alive while the attempt runs: a `renew` signal now and every
 * `renewEveryMs`. An attempt whose worker dies stops renewing, and the ledger frees the slot
 * when its lease runs out. Returns the function that stops renewing.
 */
export declare function renewLedgerSlot(client: Client, lease: LedgerLease): () => void;
