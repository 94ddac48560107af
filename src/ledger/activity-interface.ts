import type { FailureType } from '../contract';
import type { Usage } from '../plan/schema';
import type { AcquireRequest } from '../plan/requests/ledger';

/**
 * The activities a team run uses to spend from a shared ledger. No Node imports: the
 * workflow uses these types too.
 */
export interface LedgerActivities {
  /** Registers the run (starting the ledger on the run's task queue if it does not exist). */
  ledgerRegister(input: { ledgerId: string; workflowId: string; name: string }): Promise<{ exhausted: string | null }>;
  /**
   * A slot for one attempt. A wait (`max-concurrent`, or reservations holding the rest) throws
   * the retryable `TeamLedgerBusy`, so Temporal's retry policy backs off; a spent limit throws
   * the non-retryable `TeamLedgerRefused` with `{ reason }` in its details.
   */
  ledgerAcquire(input: { ledgerId: string } & AcquireRequest): Promise<{ expiresAt: number }>;
  /** Charges the attempt and frees its slot; retried until it lands, charged once. */
  ledgerSettle(input: { ledgerId: string; attemptId: string; usage: Usage | null }): Promise<{ duplicate: boolean }>;
  ledgerUnregister(input: { ledgerId: string; workflowId: string }): Promise<void>;
}

/** What `runTask` needs to keep its attempt's ledger slot alive while it runs. */
export interface LedgerLease {
  ledgerId: string;
  attemptId: string;
  renewEveryMs: number;
}

export const LEDGER_FAILURE_TYPES = {
  busy: 'TeamLedgerBusy',
  refused: 'TeamLedgerRefused',
} as const satisfies Record<string, FailureType>;

/** Details of a `TeamLedgerRefused` failure. */
export interface LedgerRefusalDetails {
  /** `max-tokens` or `max-usd` (spent), or `settled` (the attempt was given up already). */
  reason: string;
  message: string;
}
