export { createActivities, type ActivityDeps } from './run-task';
export { createLedgerActivities } from '../ledger/activities';
export * from '../ledger/activity-interface';
export * from './interface';
export * from './executors';
export { Redactor, type Secret } from './redact';
