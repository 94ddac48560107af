import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SignedDoorsSnapshot } from './signed-doors';
import type {
  AbortAllRequest,
  AcquireRequest,
  AcquireVerdict,
  ConfigureRequest,
  ExtendRequest,
  LedgerAbortAllVerdict,
  LedgerExtendVerdict,
  LedgerLimits,
  LedgerRegisterVerdict,
  LedgerResolveVerdict,
  LedgerStatus,
  LedgerTotals,
  LedgerUnregisterVerdict,
  RegisterRequest,
  RenewRequest,
  RenewSlotsRequest,
  RenewSlotsVerdict,
  ResolveRequest,
  SettleRequest,
  SettleVerdict,
  UnregisterRequest,
} from '../contract';
import type { LedgerSnapshot } from './rules';
import type { BatchRequest, BatchVerdict } from './batch';

/** The shared budget's messages, defined once for the `budgetLedger` workflow and its callers. */
export const LEDGER_WORKFLOW_TYPE = 'budgetLedger';

/** Failure type of an acquire the ledger refused (details: `{ reason, retryable }`). */
export const LEDGER_REFUSED = 'LedgerRefused';
/**
 * Failure types of an operator's call the ledger refused: new limits that loosen, a resolve with nothing lost, an
 * actor not on the ledger's operators (a forced loosening, a new operator list, a resolve, an abort-all).
 */
export const LOOSENING_REFUSED = 'loosening_refused';
export const NOTHING_TO_RESOLVE = 'nothing_to_resolve';
export const FORBIDDEN = 'forbidden';
/** Failure type of a ledger started with continued books by anyone but its own continue-as-new (a planted one). */
export const LEDGER_PLANTED = 'ledger_planted';

/**
 * What `budgetLedger` takes: an id, limits and its operators (absent: any actor), or (from its own continue-as-new
 * only: any other start with them fails, `LEDGER_PLANTED`) the ledger so far.
 * `continueAsNewAfterEvents` hands over earlier than the default (tests, very busy ledgers).
 */
export type BudgetLedgerInput = (
  | { id: string; limits: LedgerLimits; operators?: string[] }
  | {
      continued: LedgerSnapshot;
      /** The doors' memory its continue-as-new carries (src/ledger/signed-doors.ts; absent before: none). */
      doors?: SignedDoorsSnapshot;
    }
) & {
  continueAsNewAfterEvents?: number;
};

export const ledgerStatusQuery = defineQuery<LedgerStatus>('status');

export const ledgerConfigureUpdate = defineUpdate<LedgerStatus, [ConfigureRequest]>('configure');
export const ledgerRegisterUpdate = defineUpdate<LedgerRegisterVerdict, [RegisterRequest]>('register');
export const ledgerUnregisterUpdate = defineUpdate<LedgerUnregisterVerdict, [UnregisterRequest]>('unregister');
export const ledgerAcquireUpdate = defineUpdate<AcquireVerdict, [AcquireRequest]>('acquire');
export const ledgerExtendUpdate = defineUpdate<LedgerExtendVerdict, [ExtendRequest]>('extend');
export const ledgerSettleUpdate = defineUpdate<Omit<SettleVerdict, 'abort'>, [SettleRequest]>('settle');
/** Many attempts' acquires, extensions and settlements from one worker at once, answered item by item (batch.ts). */
export const ledgerBatchUpdate = defineUpdate<BatchVerdict, [BatchRequest]>('batch');
export const ledgerResolveUpdate = defineUpdate<LedgerResolveVerdict, [ResolveRequest]>('resolve');
export const ledgerAbortAllUpdate = defineUpdate<LedgerAbortAllVerdict, [AbortAllRequest]>('abortAll');

/**
 * Anyone who may signal the ledger may send it: since patch `teamrun-ledger-renew-proven` the ledger takes no renewal
 * from it (histories before it replay with theirs). Kept so that older workers' signals are answered, not failed.
 */
export const ledgerRenewSignal = defineSignal<[RenewRequest]>('renew');
/** A worker's renewal of its running attempts' slots, with its proof (or an operator's, for work outside a run). */
export const ledgerRenewSlotsUpdate = defineUpdate<RenewSlotsVerdict, [RenewSlotsRequest]>('renewSlots');

/** The totals of a ledger's status (what a run's result keeps of it). */
export function ledgerTotals(status: LedgerStatus): LedgerTotals {
  const { id, state, limits, inFlight, used, reserved, remaining, exhausted } = status;
  return { id, state, limits, inFlight, used, reserved, remaining, exhausted };
}
