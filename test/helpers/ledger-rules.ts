import { Ledger } from '../../src/ledger/rules';
import type { LedgerLimits } from '../../src/plan/requests/ledger';

/** The ledger rules' unit tests: a clock's start and a slot lease. */
export const T0 = 1_700_000_000_000;
export const LEASE = 4_000;

/** A ledger with these limits and two runs registered on it, `run-a` and `run-b`. */
export function ledgerWith(limits: LedgerLimits): Ledger {
  const ledger = Ledger.create('shared', limits, T0);
  for (const workflowId of ['run-a', 'run-b']) ledger.register({ workflowId }, T0);
  return ledger;
}
