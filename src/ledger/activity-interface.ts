import type { FailureType, LedgerTreeGrant, RunLedgerSummary } from '../contract';
import type { AcquireRequest, ExtendRequest, SettleRequest } from '../plan/requests/ledger';

/**
 * The activities a team run uses to spend from a shared ledger. No Node imports: the
 * workflow uses these types too.
 */
export interface LedgerActivities {
  /**
   * Registers the run (starting the ledger on the run's task queue if it does not exist), asking to hold `spawns` of
   * its `maxSpawnedTasks`; answers what the run works within (`tree`: absent from older workers).
   */
  ledgerRegister(input: {
    ledgerId: string;
    workflowId: string;
    name: string;
    spawns?: number;
    firstRunId?: string;
    /** The run's first block, asked in the same update (answered in `block`: null when refused or not taken). */
    block?: AcquireRequest;
  }): Promise<{ exhausted: string | null; tree?: LedgerTreeGrant; block?: LedgerBlockAnswer | null }>;
  /**
   * A slot for one attempt. A wait (`max-concurrent`, or reservations holding the rest) throws
   * the retryable `TeamLedgerBusy`, so Temporal's retry policy backs off; a spent limit throws
   * the non-retryable `TeamLedgerRefused` with `{ reason }` in its details. `once`: every refusal is told at once (a
   * block, whose run takes its attempts' slots one by one instead).
   */
  ledgerAcquire(
    input: { ledgerId: string; refuseRecovery?: boolean; once?: boolean } & AcquireRequest,
  ): Promise<LedgerBlockAnswer>;
  /**
   * Grows a running attempt's slot by an extension its run granted it. A refusal never waits (the attempt spends
   * meanwhile): it throws the non-retryable `TeamLedgerRefused` with `{ reason }`, as does a ledger whose workflow
   * cannot extend (an older version: it has no `extend` update).
   */
  ledgerExtend(input: { ledgerId: string } & ExtendRequest): Promise<{ reservation: { tokens: number; usd: number } }>;
  /**
   * Charges the attempt and frees its slot; retried until it lands, charged once. `lost`: its outcome was lost,
   * its usage unknown (the ledger then requires recovery).
   */
  ledgerSettle(input: { ledgerId: string } & SettleRequest): Promise<{ duplicate: boolean }>;
  /** Answers the ledger's status once the run left it (absent when it could not be read; void from older workers). */
  ledgerUnregister(input: {
    ledgerId: string;
    workflowId: string;
    spawned?: number;
  }): Promise<{ ledger?: RunLedgerSummary } | void>;
  /**
   * Whether ledger `ledgerId` aborted run `workflowId`: its last abort (an operator's abort-all, or an exhaustion)
   * names the run and came at or after `since`. A governed run asks before it takes an `abortRun` whose actor is the
   * ledger's (anyone may write that actor). `why` says what was found, for the run's record.
   */
  ledgerConfirmAbort(input: {
    ledgerId: string;
    workflowId: string;
    since: number;
  }): Promise<{ confirmed: boolean; why: string }>;
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
  /** Another workflow holds the ledger's id (`ledger:<name>`): the run cannot register. */
  squatted: 'TeamLedgerSquatted',
} as const satisfies Record<string, FailureType>;

/** Details of a `TeamLedgerRefused` failure. */
export interface LedgerRefusalDetails {
  /**
   * `max-tokens`, `max-usd` or `unpriced-usage` (spent), `settled` (the attempt was given up already), or
   * `recovery-required` (only when the acquire asked to be told rather than wait, and for an extension);
   * for an extension also `no-slot` and `unsupported` (the ledger's workflow has no `extend`).
   */
  reason: string;
  message: string;
}

/** A granted slot's answer: until when the ledger holds it, and a block's slots and reservation. */
export interface LedgerBlockAnswer {
  expiresAt: number;
  block?: { slots: number; reservation: { tokens: number; usd: number } };
}
