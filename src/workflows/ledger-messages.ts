import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AcquireVerdict, Ledger, LedgerSnapshot, LedgerStatus, SettleVerdict } from '../team/ledger';
import type {
  AbortAllRequest,
  AcquireRequest,
  ConfigureRequest,
  LedgerLimits,
  RegisterRequest,
  RenewRequest,
  SettleRequest,
  UnregisterRequest,
} from '../team/ledger-requests';

/** The shared budget's messages, defined once for the `budgetLedger` workflow and its callers. */
export const LEDGER_WORKFLOW_TYPE = 'budgetLedger';

/** Failure type of an acquire the ledger refused (details: `{ reason, retryable }`). */
export const LEDGER_REFUSED = 'LedgerRefused';

/**
 * What `budgetLedger` takes: an id and limits, or (from continue-as-new) the ledger so far.
 * `continueAsNewAfterEvents` hands over earlier than the default (tests, very busy ledgers).
 */
export type BudgetLedgerInput = ({ id: string; limits: LedgerLimits } | { continued: LedgerSnapshot }) & {
  continueAsNewAfterEvents?: number;
};

export const ledgerStatusQuery = defineQuery<LedgerStatus>('status');

export const ledgerConfigureUpdate = defineUpdate<ReturnType<Ledger['status']>, [ConfigureRequest]>('configure');
export const ledgerRegisterUpdate = defineUpdate<ReturnType<Ledger['register']>, [RegisterRequest]>('register');
export const ledgerUnregisterUpdate = defineUpdate<ReturnType<Ledger['unregister']>, [UnregisterRequest]>('unregister');
export const ledgerAcquireUpdate = defineUpdate<AcquireVerdict, [AcquireRequest]>('acquire');
export const ledgerSettleUpdate = defineUpdate<Omit<SettleVerdict, 'abort'>, [SettleRequest]>('settle');
export const ledgerAbortAllUpdate = defineUpdate<ReturnType<Ledger['abortAll']>, [AbortAllRequest]>('abortAll');

export const ledgerRenewSignal = defineSignal<[RenewRequest]>('renew');
