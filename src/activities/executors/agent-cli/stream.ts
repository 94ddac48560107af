import { spawn } from 'node:child_process';
import type { Redactor } from '../../redact';
import { StreamCapture } from '../output-stream';
import type { AttemptProcesses } from '../process-tree';
import { sandboxedCommand, shellQuote } from '../sandbox';
import type { AttemptLogs } from '../../interface';

export interface CliProcess {
  /** The binary (the worker's `command`) and its arguments. */
  argv: string[];
  stdin?: string;
  cwd: string | undefined;
  env: Record<string, string>;
  processes: AttemptProcesses;
  /** bubblewrap's arguments when the worker sandboxes its attempts (sandbox.ts), else null. */
  sandbox: string[] | null;
  killGraceMs: number;
  /** A stream line longer than this is skipped (counted), never held whole. */
  maxLineBytes: number;
  logTailBytes: number;
  timeoutMs?: number;
  signal: AbortSignal;
  redactor: Redactor;
  /** Each stream line, in order; the next waits for this one (usage is charged before more is read). */
  onLine(line: string): Promise<void> | void;
}

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why the worker stopped it (cancelled, timed out, the budget), or null when it ended on its own. */
  stoppedBy: string | null;
  spawnError?: string;
  longLines: number;
  logs: AttemptLogs;
}

/**
 * Runs an agent CLI contained as a shell task is (a cgroup or its process tree), reading its
 * stdout line by line as it comes. A stop (the attempt cancelled, its timeout, `stop()`) sends
 * SIGINT first, so the CLI can save its session, then kills everything after `killGraceMs`.
 */
export function runCli(how: CliProcess): { done: Promise<CliExit>; stop(why: string): void } {
  const { processes, redactor } = how;
  const keepBytes = how.logTailBytes + redactor.margin;
  const stdoutTail = new StreamCapture({ keepBytes, maxLineBytes: how.maxLineBytes });
  const stderrTail = new StreamCapture({ keepBytes, maxLineBytes: how.maxLineBytes });
  let stoppedBy: string | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  /** Set by a stop: settles once its grace period is over and everything left was killed. */
  let graceOver: Promise<void> | undefined;
  let stopRequested: (why: string) => void = () => undefined;

  const done = new Promise<CliExit>((resolve) => {
    const lines = new LineSplitter(how.maxLineBytes);
    let chain: Promise<void> = Promise.resolve();
    const feed = (line: string) => {
      chain = chain.then(() => how.onLine(line)).catch(() => undefined);
    };
    let child;
    try {
      child = spawn('/bin/sh', processes.argv(sandboxedCommand(`exec ${shellQuote(how.argv)}`, how.sandbox)), {
        cwd: how.cwd,
        env: how.env,
        detached: true,
        stdio: [how.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
    } catch (err) {
      processes.dispose();
      resolve({ ...ended(null, null), spawnError: (err as Error).message });
      return;
    }
    if (child.pid !== undefined) processes.started(child.pid);
    if (how.stdin !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(how.stdin);
    }
    const stop = (why: string) => {
      if (stoppedBy) return;
      stoppedBy = why;
      void processes.signal('SIGINT').catch(() => undefined);
      graceOver = new Promise((over) => {
        killTimer = setTimeout(
          () =>
            void processes
              .signal('SIGKILL')
              .catch(() => undefined)
              .finally(over),
          how.killGraceMs,
        );
      });
    };
    stopRequested = stop;
    const onAbort = () => stop('cancelled');
    how.signal.addEventListener('abort', onAbort, { once: true });
    if (how.signal.aborted) onAbort();
    const timeout = how.timeoutMs
      ? setTimeout(() => stop(`timed out after ${how.timeoutMs} ms`), how.timeoutMs)
      : undefined;

    child.stdout!.on('data', (chunk: Buffer) => {
      stdoutTail.push(chunk);
      lines.push(chunk, feed);
    });
    child.stderr!.on('data', (chunk: Buffer) => stderrTail.push(chunk));
    let spawnError: string | undefined;
    child.on('error', (err) => (spawnError = err.message));
    // Whatever the CLI left behind (holding its pipes open, or not) ends with it; but once a stop has begun, the
    // CLI keeps its grace period. Under the sandbox the child is bwrap, which the SIGINT ends at once while the CLI
    // inside still saves its session: killing "what is left" then lost every session that took a moment to save.
    child.on('exit', () => {
      if (stoppedBy) return;
      void processes
        .alive()
        .then((left) => (left ? processes.signal('SIGKILL') : undefined))
        .catch(() => undefined);
    });
    child.on('close', (code, signal) => {
      lines.end(feed);
      clearTimeout(timeout);
      how.signal.removeEventListener('abort', onAbort);
      // What outlives the CLI's pipes is killed before the attempt ends; during a stop, once the grace period is over.
      const leftovers = async () => {
        if (!(await processes.alive().catch(() => true))) return;
        await (graceOver ?? processes.signal('SIGKILL'));
      };
      void chain.then(leftovers).finally(() => {
        clearTimeout(killTimer);
        processes.dispose();
        resolve({ ...ended(code, signal), ...(spawnError ? { spawnError } : {}) });
      });
    });

    function ended(code: number | null, signal: NodeJS.Signals | null): CliExit {
      // These tails hand no lines over (the stream is read by `lines`): nothing to wait for.
      void stdoutTail.end();
      void stderrTail.end();
      return {
        code,
        signal,
        stoppedBy,
        longLines: lines.longLines,
        logs: {
          stdout: stdoutTail.tail(how.logTailBytes, redactor),
          stderr: stderrTail.tail(how.logTailBytes, redactor),
          stdoutBytes: stdoutTail.total,
          stderrBytes: stderrTail.total,
        },
      };
    }
  });
  return { done, stop: (why) => stopRequested(why) };
}

/** Splits a byte stream into lines of at most `max` bytes; longer ones are skipped and counted. */
class LineSplitter {
  longLines = 0;
  private parts: Buffer[] = [];
  private bytes = 0;
  private skipping = false;

  constructor(private readonly max: number) {}

  push(chunk: Buffer, onLine: (line: string) => void): void {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, newline === -1 ? chunk.length : newline);
      if (!this.skipping) {
        this.bytes += piece.length;
        if (this.bytes > this.max) {
          this.skipping = true;
          this.longLines++;
          this.parts = [];
        } else {
          this.parts.push(piece);
        }
      }
      if (newline === -1) return;
      this.flush(onLine);
      at = newline + 1;
    }
  }

  end(onLine: (line: string) => void): void {
    if (this.bytes > 0) this.flush(onLine);
  }

  private flush(onLine: (line: string) => void): void {
    if (!this.skipping) onLine(Buffer.concat(this.parts).toString('utf8').replace(/\r$/, ''));
    this.parts = [];
    this.bytes = 0;
    this.skipping = false;
  }
}
