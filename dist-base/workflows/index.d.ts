export { teamRun } from './team-run';
export { budgetLedger } from '../ledger/workflow';
export { agentJournal } from '../agent/workflow';
