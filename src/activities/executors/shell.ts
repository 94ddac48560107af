import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { UsageSchema, type Usage } from '../../plan/schema';
import { ExecutorError, attemptEnv, type Executor } from './types';

interface ShellSpec {
  kind: 'shell';
  command: string;
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

const USAGE_PREFIX = '::teamrun-usage::';
const OUTPUT_PREFIX = '::teamrun-output::';
const ERROR_PREFIX = '::teamrun-error::';

/** Keeps the last `limit` characters of a stream, for error messages. */
class Tail {
  private text = '';
  constructor(private readonly limit: number) {}
  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.limit);
  }
  toString(): string {
    return this.text.trim();
  }
}

/**
 * Runs `command` under `/bin/sh -c` in its own process group, so a cancelled attempt can kill
 * everything it started (TERM, then KILL after `killGraceMs`).
 */
export const shellExecutor: Executor = (raw, ctx) => {
  const spec = raw as unknown as ShellSpec;
  const { killGraceMs, outputTailBytes } = ctx.config.worker.shell;
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', spec.command], {
      cwd: spec.cwd,
      env: {
        ...ctx.env,
        ...spec.env,
        ...attemptEnv(ctx),
        TEAMRUN_HOLDER: ctx.holder,
        TEAMRUN_INPUTS: JSON.stringify(ctx.dependencyOutputs),
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new Tail(outputTailBytes);
    const stderr = new Tail(outputTailBytes);
    let usage: Usage | undefined;
    let output: unknown;
    let reported: { message?: string; nonRetryable?: boolean } | undefined;
    let stoppedBy: string | null = null;
    let killTimer: NodeJS.Timeout | undefined;

    const killGroup = (why: string) => {
      if (stoppedBy || child.exitCode !== null || child.pid === undefined) return;
      stoppedBy = why;
      signalGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), killGraceMs);
    };
    const onAbort = () => killGroup('cancelled');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const timeout = spec.timeoutMs ? setTimeout(() => killGroup(`timed out after ${spec.timeoutMs} ms`), spec.timeoutMs) : undefined;

    createInterface({ input: child.stdout }).on('line', (line) => {
      stdout.push(`${line}\n`);
      try {
        if (line.startsWith(USAGE_PREFIX)) usage = addUsage(usage, UsageSchema.parse(JSON.parse(line.slice(USAGE_PREFIX.length))));
        else if (line.startsWith(OUTPUT_PREFIX)) output = JSON.parse(line.slice(OUTPUT_PREFIX.length));
        else if (line.startsWith(ERROR_PREFIX)) reported = JSON.parse(line.slice(ERROR_PREFIX.length));
      } catch (err) {
        stderr.push(`teamrun: ignored malformed line "${line.slice(0, 200)}": ${(err as Error).message}\n`);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    if (ctx.signal.aborted) onAbort();

    child.on('error', (err) => reject(new ExecutorError(`could not start /bin/sh: ${err.message}`, { usage })));
    child.on('close', (code, signal) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      // The group may still hold children that outlived the shell.
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
      if (code === 0 && !reported) {
        resolve({ output, usage });
        return;
      }
      const how = stoppedBy ?? (signal ? `killed by ${signal}` : `exit code ${code}`);
      const detail = reported?.message ?? (stderr.toString() || stdout.toString());
      reject(
        new ExecutorError(`shell command failed (${how})${detail ? `: ${detail.slice(-1_000)}` : ''}`, {
          nonRetryable: reported?.nonRetryable ?? false,
          type: stoppedBy?.startsWith('timed out') ? 'TeamExecutorTimeout' : 'TeamShellFailed',
          usage,
          output,
        }),
      );
    });
  });
};

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function addUsage(total: Usage | undefined, more: Usage): Usage {
  if (!total) return more;
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  return {
    inputTokens: sum(total.inputTokens, more.inputTokens),
    outputTokens: sum(total.outputTokens, more.outputTokens),
    cacheTokens: sum(total.cacheTokens, more.cacheTokens),
    costUsd: sum(total.costUsd, more.costUsd),
    model: more.model ?? total.model,
  };
}
