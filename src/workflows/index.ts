export { teamRun } from './team-run';
export { budgetLedger } from './budget-ledger';
