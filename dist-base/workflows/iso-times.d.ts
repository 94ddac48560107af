import type { WithIsoTimes } from '../contract';
/**
 * A query answer with an ISO 8601 twin beside every timestamp (`startedAt` -> `startedAtIso`,
 * `at` -> `atIso`), for people reading answers in the Web UI's Queries tab. The epoch-ms fields
 * stay as they are: the CLI, scripts and tests read those. Deterministic (no clock read).
 */
export declare function withIsoTimes<T>(value: T, depth?: number): WithIsoTimes<T>;
