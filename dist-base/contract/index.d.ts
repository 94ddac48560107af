/**
 * teamrun's public contract as types (docs/contract.md in TypeScript): what a consumer imports and
 * what the workflow, the client and the CLI are checked against. Type-only and free of Node and
 * runtime code, so the workflow bundle may import it; behaviour lives in src/team and src/workflows.
 */
export type * from './plan';
export type * from './run';
export type * from './result';
export type * from './budget';
export type * from './adjudication';
export type * from './control';
export type * from './mailbox';
export type * from './events';
export type * from './names';
export type * from './ledger';
export type * from './agent';
