export { createActivities, type ActivityDeps } from './run-task';
export { createLedgerActivities } from './ledger';
export * from './ledger-interface';
export * from './interface';
export * from './executors';
export { Redactor, type Secret } from './redact';
