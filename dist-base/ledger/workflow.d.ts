import * as lm from './messages';
/**
 * `budgetLedger`: one shared budget for many team runs (one workflow per ledger id). Runs
 * acquire a slot before each attempt and settle it after; a charge that crosses a hard limit,
 * or an operator's `abortAll`, sends `abortRun` to every registered run. It runs until
 * cancelled or terminated, handing over to a fresh history with continue-as-new.
 */
export declare function budgetLedger(input: lm.BudgetLedgerInput): Promise<void>;
