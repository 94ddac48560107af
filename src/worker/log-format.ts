import type { LogEntry, LogLevel, RuntimeOptions } from '@temporalio/worker';
import { DefaultLogger, Runtime } from '@temporalio/worker';

/** The log attributes worth a terminal line; the rest (the task token above all) stays out. */
const KEPT = ['activityId', 'workflowId', 'taskQueue'] as const;

/**
 * One line per log entry: time, level, message, the attempt's activity id (`<key>#<token>`) and
 * run, and an error's message. The SDK's default prints every attribute of an activity, task
 * token included, over a dozen lines, for something as ordinary as an interrupted attempt.
 */
export function oneLineLogFunction(entry: LogEntry): void {
  const { level, timestampNanos, message, meta } = entry;
  const at = new Date(Number(timestampNanos / 1_000_000n)).toISOString();
  const fields: string[] = [];
  for (const key of KEPT) if (typeof meta?.[key] === 'string') fields.push(`${key}=${meta[key] as string}`);
  const error = meta?.error ?? meta?.failure;
  if (error !== undefined)
    fields.push(`error=${JSON.stringify(error instanceof Error ? error.message : String(error))}`);
  process.stderr.write(`${at} [${level}] ${message}${fields.length ? ` (${fields.join(' ')})` : ''}\n`);
}

/** A logger for the worker's terminal: one line per entry, or the SDK's full detail at DEBUG and TRACE. */
export function terminalLogger(level: LogLevel): DefaultLogger {
  return level === 'DEBUG' || level === 'TRACE'
    ? new DefaultLogger(level)
    : new DefaultLogger(level, oneLineLogFunction);
}

/**
 * Installs the terminal logger as the Temporal runtime's, once
 * per process (with the runtime's other options, e.g. metrics).
 */
export function installTerminalLogger(
  level: LogLevel = 'INFO',
  options: Pick<RuntimeOptions, 'shutdownSignals' | 'telemetryOptions'> = {},
): void {
  Runtime.install({ logger: terminalLogger(level), ...options });
}
