import type { LogEntry, LogLevel, RuntimeOptions } from '@temporalio/worker';
import { DefaultLogger } from '@temporalio/worker';
/**
 * One line per log entry: time, level, message, the attempt's activity id (`<key>#<token>`) and
 * run, and an error's message. The SDK's default prints every attribute of an activity, task
 * token included, over a dozen lines, for something as ordinary as an interrupted attempt.
 */
export declare function oneLineLogFunction(entry: LogEntry): void;
/** A log line without terminal escapes: the one-line format has no colours of its own. */
export declare function plain(line: string): string;
/** A logger for the worker's terminal: one line per entry, or the SDK's full detail at DEBUG and TRACE. */
export declare function terminalLogger(level: LogLevel): DefaultLogger;
/**
 * Installs the terminal logger as the Temporal runtime's, once
 * per process (with the runtime's other options, e.g. metrics).
 * The SDK core's own warnings (a workflow task the server refused, e.g. for missing search
 * attributes) are forwarded to it: printed by the core itself they carry colour escapes even
 * into a file or a pipe.
 */
export declare function installTerminalLogger(level?: LogLevel, options?: Pick<RuntimeOptions, 'shutdownSignals' | 'telemetryOptions'>): void;
