import { spawnSync } from 'node:child_process';
import os from 'node:os';
import type { SandboxConfig } from '../../config/sandbox';
import { ExecutorError } from './types';

// The sandbox of `worker.sandbox` (src/config/sandbox.ts): bubblewrap, a PID namespace of its own
// with its own /proc, no capabilities, and with `readOnly` a read-only file system.

/** Whether `bwrap` starts here, asked once per binary: a worker that cannot sandbox fails its attempts. */
const usable = new Map<string, string | null>();

function problemOf(command: string): string | null {
  const known = usable.get(command);
  if (known !== undefined) return known;
  const probe = spawnSync(command, [...namespaceArgs(), '--', '/bin/true'], { timeout: 10_000, encoding: 'utf8' });
  const problem =
    probe.error !== undefined
      ? probe.error.message
      : probe.status !== 0
        ? `exit ${probe.status}: ${(probe.stderr ?? '').trim().slice(0, 300)}`
        : null;
  usable.set(command, problem);
  return problem;
}

function namespaceArgs(): string[] {
  // A fresh /proc over the PID namespace; every capability dropped, so it cannot be unmounted to
  // uncover the worker's (a root task with CAP_SYS_ADMIN could: measured).
  return ['--dev-bind', '/', '/', '--unshare-pid', '--unshare-ipc', '--proc', '/proc', '--cap-drop', 'ALL'];
}

/** bubblewrap's arguments before the program it runs, or null when the sandbox is off. */
export function sandboxPrefix(sandbox: SandboxConfig, cwd: string | undefined): string[] | null {
  if (sandbox.mode === 'off') return null;
  const problem = problemOf(sandbox.command);
  if (problem !== null) {
    throw new ExecutorError(
      `worker.sandbox.mode is "on" but ${sandbox.command} cannot start a sandbox here (${problem}); ` +
        `install bubblewrap or set worker.sandbox.mode: off`,
      { nonRetryable: true, type: 'TeamSandboxUnavailable' },
    );
  }
  const args = [sandbox.command, ...namespaceArgs()];
  if (sandbox.readOnly) {
    args.splice(1, 3, '--ro-bind', '/', '/', '--dev-bind', '/dev', '/dev');
    for (const dir of [os.tmpdir(), ...(cwd ? [cwd] : []), ...sandbox.writable]) args.push('--bind', dir, dir);
  }
  if (cwd) args.push('--chdir', cwd);
  return [...args, '--'];
}

/** Single-quoted for /bin/sh. */
export function shellQuote(words: string[]): string {
  return words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
}

/** A command line for `/bin/sh -c`, run inside the sandbox when there is one. */
export function sandboxedCommand(command: string, prefix: string[] | null): string {
  return prefix ? `exec ${shellQuote([...prefix, '/bin/sh', '-c', command])}` : command;
}
