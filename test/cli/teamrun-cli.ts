import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import { temporalAddress, waitFor } from '../helpers/env';

const root = path.resolve(__dirname, '..', '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<CliResult>;
}

/**
 * Starts `node bin/teamrun.js <args>` as a user would, against the shared dev server unless
 * `env.TEMPORAL_ADDRESS` says otherwise. Workers it starts reuse the pre-built workflow bundle.
 */
export function spawnTeamrun(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [path.join(root, 'bin/teamrun.js'), ...args], {
    cwd: root,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: temporalAddress(),
      TEAMRUN_WORKFLOW_BUNDLE: inject('workflowBundle'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs a command to its end (killed after `timeoutMs`). */
export async function teamrun(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 90_000): Promise<CliResult> {
  const run = spawnTeamrun(args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  try {
    return await run.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until a long-running command (dev, worker) prints `text`, failing early if it exits. */
export async function waitForOutput(run: CliProcess, text: string, timeoutMs = 90_000): Promise<void> {
  await waitFor(
    `teamrun to print "${text}"`,
    () => {
      if (run.stdout().includes(text) || run.stderr().includes(text)) return true;
      if (run.child.exitCode !== null)
        throw new Error(`teamrun exited ${run.child.exitCode}:\n${run.stdout()}\n${run.stderr()}`);
      return false;
    },
    timeoutMs,
    200,
  );
}
