import type { LogLevel } from '@temporalio/worker';
/** Parses a non-negative integer option value, naming what was wrong. */
export declare function intOption(value: string): number;
export declare function logLevelOption(value: string): LogLevel;
