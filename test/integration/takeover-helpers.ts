import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ExecutorContext } from '../../src/activities/executors';
import type { AbortRequest, AbortVerdict } from '../../src/contract';
import type { TeamRunHandle } from '../../src/client';
import * as msg from '../../src/workflows/messages';
import { temporalAddress, temporalBinary, waitFor } from '../helpers/env';
import { hostPidsWithEnv } from '../helpers/processes';

export { alive } from '../helpers/processes';

const run = promisify(execFile);

/** The attempt of `key` that holds the lease now, as an operator sees it in `activeClaims`. */
export function claimOf(handle: TeamRunHandle, key: string, timeoutMs = 20_000): Promise<msg.ActiveClaim> {
  return waitFor(
    `an active claim on "${key}"`,
    async () => (await handle.query(msg.activeClaimsQuery)).find((c) => c.key === key),
    timeoutMs,
  );
}

export async function taskOf(handle: TeamRunHandle, key: string) {
  return (await handle.query(msg.tasksQuery)).find((t) => t.key === key)!;
}

export function waitForStatus(handle: TeamRunHandle, key: string, status: string, timeoutMs = 20_000) {
  return waitFor(`"${key}" to be ${status}`, async () => (await taskOf(handle, key)).status === status, timeoutMs);
}

export { eventsOf } from '../helpers/scenario';

/** The real `temporal` CLI against the shared dev server; resolves with its stdout. */
export async function temporal(...args: string[]): Promise<string> {
  const { stdout } = await run(temporalBinary(), [...args, '--address', temporalAddress()], { timeout: 20_000 });
  return stdout;
}

/** The code an update's validator (or handler) rejected it with: the ApplicationFailure's type. */
export async function rejectionCode(update: Promise<unknown>): Promise<string> {
  try {
    await update;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
      return err.cause.type ?? '(no type)';
    throw err;
  }
  throw new Error('expected the update to be rejected');
}

export function tempDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `teamrun-${name}-`));
}

/**
 * A shell task that reports usage and a partial output, then waits in a child process; it writes "<shell pid> <child
 * pid>" to `pidFile` once both run (its own namespace's pids under the worker's sandbox: `pidsOf` finds the host's).
 */
export function shellHolder(key: string, pidFile: string, extra: Record<string, unknown> = {}) {
  return {
    key,
    ...extra,
    executor: {
      kind: 'shell',
      // The mark `pidsOf` finds its processes by, from outside.
      env: { HOLDER_PID_FILE: pidFile },
      command: [
        `echo '::teamrun-usage::{"inputTokens":3,"outputTokens":2}'`,
        `echo '::teamrun-output::{"step":1}'`,
        'sleep 600 &',
        `echo "$$ $!" > "${pidFile}.tmp" && mv "${pidFile}.tmp" "${pidFile}"`,
        'wait',
      ].join('\n'),
    },
  };
}

/**
 * The host's pids of a `shellHolder`'s processes (its shell and child, and under the worker's sandbox the bubblewrap
 * processes around them), once it wrote its pid file: found by the mark in their environment, as the pids the task
 * wrote are its PID namespace's.
 */
export function pidsOf(pidFile: string, timeoutMs = 20_000): Promise<number[]> {
  return waitFor(
    `${pidFile} to be written`,
    () => {
      if (!existsSync(pidFile)) return null;
      const pids = hostPidsWithEnv(`HOLDER_PID_FILE=${pidFile}`);
      return pids.length >= 2 ? pids : null;
    },
    timeoutMs,
    20,
  );
}

/**
 * A custom executor kind that ignores cancellation: once aborted it still waits for the test to
 * `release()` it, then returns a success with output and usage.
 */
export function stubbornExecutor() {
  let aborted = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const executor = async (_spec: unknown, ctx: ExecutorContext) => {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    aborted = true;
    await released;
    return { output: { wrote: 'report.md', lines: 42 }, usage: { inputTokens: 11, outputTokens: 7 } };
  };
  return { executor, release, wasAborted: () => aborted };
}

/** `abortRun` as an update, with its verdict. */
export function abortRun(handle: TeamRunHandle, request: AbortRequest): Promise<AbortVerdict> {
  return handle.executeUpdate(msg.abortRunUpdate, { args: [request] });
}

/** A custom executor kind whose attempts run until the test opens the gate, then succeed. */
export function gateExecutor() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const executor = async () => {
    await opened;
    return {};
  };
  return { executor, open };
}
