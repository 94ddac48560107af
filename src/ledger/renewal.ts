import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { ledgerHandle } from './handle';
import * as lm from './messages';
import type { LedgerLease } from './activity-interface';

/**
 * Keeps an attempt's ledger slot alive while the attempt runs: a `renew` signal now and every
 * `renewEveryMs`. An attempt whose worker dies stops renewing, and the ledger frees the slot
 * when its lease runs out. Returns the function that stops renewing.
 */
export function renewLedgerSlot(client: Client, lease: LedgerLease): () => void {
  const log = Context.current().log;
  const handle = ledgerHandle(client, lease.ledgerId);
  const renew = () => {
    handle.signal(lm.ledgerRenewSignal, { attemptId: lease.attemptId }).catch((err: unknown) => {
      // A missed renewal is tolerated (the lease outlives two periods); the next one may land.
      log.warn('ledger slot renewal failed', {
        ledgerId: lease.ledgerId,
        attemptId: lease.attemptId,
        error: String(err),
      });
    });
  };
  renew();
  const timer = setInterval(renew, lease.renewEveryMs);
  return () => clearInterval(timer);
}
