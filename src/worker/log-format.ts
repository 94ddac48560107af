import type { LogEntry, LogLevel, LogMetadata, Logger, RuntimeOptions } from '@temporalio/worker';
import { DefaultLogger, Runtime, makeTelemetryFilterString } from '@temporalio/worker';
import { isStopQueue } from './stop-channel';
import { isControlQueue } from '../plan/lease-pace';

/** The log attributes worth a terminal line; the rest (the task token above all) stays out. */
const KEPT = ['activityId', 'workflowId', 'taskQueue'] as const;

/**
 * One line per log entry: time, level, message, the attempt's activity id (`<key>#<token>`) and
 * run, and an error's message. The SDK's default prints every attribute of an activity, task
 * token included, over a dozen lines, for something as ordinary as an interrupted attempt.
 */
export function oneLineLogFunction(entry: LogEntry): void {
  const { level, timestampNanos, message, meta } = entry;
  // The stop and control queues' workers poll activities only, on purpose (stop-channel.ts): their lifecycle
  // lines ("No workflows registered" and the like) are noise unless something fails.
  const queue = typeof meta?.taskQueue === 'string' ? meta.taskQueue : null;
  if (level !== 'ERROR' && queue !== null && (isStopQueue(queue) || isControlQueue(queue))) return;
  // teamrun registers no Nexus services: the SDK's line saying so is noise as well.
  if (level === 'INFO' && message.startsWith('No Nexus services registered')) return;
  const at = new Date(Number(timestampNanos / 1_000_000n)).toISOString();
  const fields: string[] = [];
  for (const key of KEPT) if (typeof meta?.[key] === 'string') fields.push(`${key}=${meta[key] as string}`);
  const error = meta?.error ?? meta?.failure;
  if (error !== undefined)
    fields.push(`error=${JSON.stringify(error instanceof Error ? error.message : String(error))}`);
  process.stderr.write(plain(`${at} [${level}] ${message}${fields.length ? ` (${fields.join(' ')})` : ''}`) + '\n');
}

/** ANSI escape sequences (colours, cursor moves), which a log file or a pipe shows as raw bytes. */
// oxlint-disable-next-line no-control-regex -- matching the escape character is the point
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A log line without terminal escapes: the one-line format has no colours of its own. */
export function plain(line: string): string {
  return line.replace(ANSI, '');
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
 * The SDK core's own warnings (a workflow task the server refused, e.g. for missing search
 * attributes) are forwarded to it: printed by the core itself they carry colour escapes even
 * into a file or a pipe.
 */
export function installTerminalLogger(
  level: LogLevel = 'INFO',
  options: Pick<RuntimeOptions, 'shutdownSignals' | 'telemetryOptions'> = {},
): void {
  const logging = { filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }), forward: {} };
  const runtime = Runtime.install({
    logger: terminalLogger(level),
    ...options,
    telemetryOptions: { logging, ...options.telemetryOptions },
  });
  // Set before any worker is made: each composes its loggers from the runtime's when it is created. `readonly` in
  // the SDK's types only.
  (runtime as { logger: Logger }).logger = new LevelGate(level, runtime.logger);
}

/**
 * The runtime's logger, less what the terminal would drop. With core logs forwarded, the SDK makes the runtime's
 * logger a TRACE logger that holds every entry for 100 ms (to sort it among core's) before it reaches the terminal's:
 * the DEBUG lines the SDK writes for each activity it runs were each stamped, held and sorted, then dropped. That was
 * about 0.02 ms of a plain task's 2 ms of worker CPU, and the held entries outlived the young generation
 * (docs/benchmarks.md, the cost section's ninth pass).
 */
export class LevelGate implements Logger {
  private readonly least: number;

  constructor(
    level: LogLevel,
    private readonly next: Logger & { flush?(): void; close?(): void },
  ) {
    this.least = LEVELS.indexOf(level);
  }

  log(level: LogLevel, message: string, meta?: LogMetadata): void {
    if (LEVELS.indexOf(level) >= this.least) this.next.log(level, message, meta);
  }
  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }
  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }
  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }
  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }
  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
  /** The runtime flushes and closes its logger as it shuts down: what was held is written then. */
  flush(): void {
    this.next.flush?.();
  }
  close(): void {
    this.next.close?.();
  }
}

const LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];
