import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { SandboxConfig } from '../../config/sandbox';
import { GATEWAY_DIR_PREFIX } from '../gateway/leftovers';
import { ExecutorError } from './types';

// The sandbox of `worker.sandbox` (src/config/sandbox.ts): bubblewrap, a PID namespace of its own
// with its own /proc, no capabilities, and with `readOnly` a read-only file system.

/** Whether `bwrap` starts here, asked once per binary (the worker asks as it starts: `sandboxAtStart`). */
const usable = new Map<string, string | null>();

function problemOf(command: string, ipc: boolean): string | null {
  const key = `${ipc ? 'pid+ipc' : 'pid'} ${command}`;
  const known = usable.get(key);
  if (known !== undefined) return known;
  const probe = spawnSync(command, [...namespaceArgs(ipc), '--', '/bin/true'], {
    timeout: 10_000,
    encoding: 'utf8',
  });
  const problem =
    probe.error !== undefined
      ? probe.error.message
      : probe.status !== 0
        ? `exit ${probe.status}: ${(probe.stderr ?? '').trim().slice(0, 300)}`
        : null;
  usable.set(key, problem);
  return problem;
}

function namespaceArgs(ipc: boolean): string[] {
  // A fresh /proc over the PID namespace; every capability dropped, so it cannot be unmounted to
  // uncover the worker's (a root task with CAP_SYS_ADMIN could: measured). `on` adds an IPC namespace.
  return [
    '--dev-bind',
    '/',
    '/',
    '--unshare-pid',
    ...(ipc ? ['--unshare-ipc'] : []),
    '--proc',
    '/proc',
    '--cap-drop',
    'ALL',
    // A worker killed with kill -9 (or by the OOM killer) takes the namespace with it: bwrap is the worker's own child
    // (`exec` all the way). Without it the attempt's processes ran on, reparented to init, after its lease had run out
    // (measured: `sleep 300` still running 20 s after the kill, past a 10 s lease). Polite signals spare this bwrap,
    // whose death would end the namespace before the task could save its work (process-tree.ts `containAttempt`).
    '--die-with-parent',
  ];
}

/** What the worker's sandbox does here: whether attempts are isolated, and one line that says so (and why not). */
export interface SandboxState {
  isolated: boolean;
  /** Attempts fail rather than run (`on`, or `readOnly`, where bwrap cannot start a sandbox). */
  failing: boolean;
  line: string;
}

/**
 * The worker's sandbox as it starts, probed once (bwrap started with the sandbox's arguments): logged by the worker
 * and shown by `teamrun doctor`, so a worker whose attempts are not isolated from each other says so.
 */
export function sandboxAtStart(sandbox: SandboxConfig): SandboxState {
  if (sandbox.mode === 'off') {
    return {
      isolated: false,
      failing: false,
      line: "worker.sandbox.mode is off: the tasks of this worker can read each other's TEAMRUN_ATTEMPT_SECRET",
    };
  }
  const problem = problemOf(sandbox.command, sandbox.mode === 'on');
  if (problem === null) {
    const how = sandbox.mode === 'on' ? 'PID and IPC namespace' : 'PID namespace';
    return {
      isolated: true,
      failing: false,
      line: `attempts run in a ${how} of their own (${sandbox.command}${sandbox.readOnly ? ', read-only' : ''})`,
    };
  }
  if (sandbox.mode === 'on' || sandbox.readOnly) {
    return { isolated: false, failing: true, line: unavailable(sandbox, problem) };
  }
  return {
    isolated: false,
    failing: false,
    line:
      `attempts are NOT isolated from each other: ${sandbox.command} cannot start a sandbox here (${problem}), ` +
      "so a task can read another attempt's TEAMRUN_ATTEMPT_SECRET from /proc; install bubblewrap (and allow " +
      'unprivileged user namespaces for a worker that is not root), or set worker.sandbox.mode: off to say so',
  };
}

function unavailable(sandbox: SandboxConfig, problem: string): string {
  const asked = sandbox.mode === 'on' ? 'worker.sandbox.mode is "on"' : 'worker.sandbox.readOnly is true';
  return (
    `${asked} but ${sandbox.command} cannot start a sandbox here (${problem}); ` +
    'install bubblewrap or set worker.sandbox.mode: off'
  );
}

/**
 * What of its worker's gateway directory an attempt's processes see (gateway/leftovers.ts says what is in it): only
 * `keep` (its own inputs, the socket, the launcher), so that a task cannot read another attempt's dependency outputs.
 */
export interface GatewayView {
  dir: string;
  keep: string[];
}

/** The view of an attempt that holds `access` (none without a gateway), keeping `own` paths of its own too. */
export function gatewayView(
  access: { socket: string; binDir: string | null } | undefined,
  own: string[],
): GatewayView | undefined {
  if (!access) return undefined;
  const dir = path.dirname(access.socket);
  // Only a worker's own gateway directory is hidden, never a directory that may hold anything else.
  if (!path.basename(dir).startsWith(GATEWAY_DIR_PREFIX)) return undefined;
  return { dir, keep: [access.socket, ...(access.binDir ? [access.binDir] : []), ...own] };
}

/**
 * bubblewrap's arguments before the program it runs, or null when the attempt runs unsandboxed (`off`, or `auto`
 * where bwrap cannot start a sandbox). With a `view`, the gateway directory is an empty tmpfs but for what it keeps.
 */
export function sandboxPrefix(sandbox: SandboxConfig, cwd: string | undefined, view?: GatewayView): string[] | null {
  if (sandbox.mode === 'off') return null;
  const problem = problemOf(sandbox.command, sandbox.mode === 'on');
  if (problem !== null) {
    if (sandbox.mode === 'auto' && !sandbox.readOnly) return null;
    throw new ExecutorError(unavailable(sandbox, problem), { nonRetryable: true, type: 'TeamSandboxUnavailable' });
  }
  const args = [sandbox.command, ...namespaceArgs(sandbox.mode === 'on')];
  if (sandbox.readOnly) {
    args.splice(1, 3, '--ro-bind', '/', '/', '--dev-bind', '/dev', '/dev');
    for (const dir of [os.tmpdir(), ...(cwd ? [cwd] : []), ...sandbox.writable]) args.push('--bind', dir, dir);
  }
  if (view) {
    args.push('--tmpfs', view.dir);
    for (const kept of view.keep) args.push('--bind', kept, kept);
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
