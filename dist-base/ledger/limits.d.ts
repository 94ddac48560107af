/**
 * Limits only tighten: which changes of a ledger's limits loosen it. A limit loosens when it is raised or
 * removed; a window loosens when it is added or shortened (usage then resets sooner).
 */
import type { LedgerLimits } from '../plan/requests/ledger';
import type { BudgetReason } from '../team/types';
/** Each loosening from `from` to `to`, as `maxUsd 5 -> 10` (`none` where a limit is absent); empty when none. */
export declare function loosenings(from: LedgerLimits, to: LedgerLimits): string[];
/** The budget reason a run stops with when its ledger refuses an attempt for good (null: not a limit). */
export declare function ledgerBudgetReason(reason: string): BudgetReason | null;
