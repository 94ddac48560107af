import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TeamrunConfig } from '../../config/config';
import type { ShellSpec } from '../../plan/schema';
import { ExecutorError, attemptEnv, type ExecutorContext } from './types';

type ShellConfig = TeamrunConfig['worker']['shell'];

/** What a plan may give as an environment value: a literal, or a worker variable named in `worker.shell.secretEnv`. */
export type PlanEnvValue = NonNullable<ShellSpec['env']>[string];

/** The worker's variables every task gets (when set), whatever the config says. */
export const BASE_ENV = ['PATH', 'HOME', 'LANG', 'LC_*', 'TMPDIR', 'TZ'];
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** `*` and `?` globs over names (`AWS_*`); anything else matches literally. */
export function globMatcher(patterns: ReadonlyArray<string>): (name: string) => boolean {
  const exact = new Set(patterns.filter((p) => !/[*?]/.test(p)));
  const globs = patterns
    .filter((p) => /[*?]/.test(p))
    .map(
      (p) =>
        new RegExp(
          `^${p
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.')}$`,
        ),
    );
  return (name) => exact.has(name) || globs.some((g) => g.test(name));
}

/**
 * The environment of one shell attempt: an allowlist. The worker's PATH, HOME, LANG, LC_*,
 * TMPDIR and TZ, the names `worker.shell.passEnv` lists, the plan's literal values, the values
 * the plan takes from `worker.shell.secretEnv` by name, and the attempt's `TEAMRUN_*` variables,
 * with its gateway's socket and secret; PATH starts with the directory of the worker's own
 * `teamrun`. The worker's `TEMPORAL_ADDRESS` and `TEMPORAL_NAMESPACE`, and any `TEMPORAL_*` of
 * passEnv, only when the operator opts in (`worker.shell.temporalEnv`): a task speaks to its run
 * through the gateway, and the cluster is not a task's to reach.
 */
export function shellEnvironment(
  planEnv: Readonly<Record<string, PlanEnvValue>> | undefined,
  ctx: ExecutorContext,
  extra: Record<string, string>,
): Record<string, string> {
  const shell = ctx.config.worker.shell;
  const passes = globMatcher([...BASE_ENV, ...shell.passEnv]);
  const env: Record<string, string> = {};
  const temporal = shell.temporalEnv;
  for (const [name, value] of Object.entries(ctx.env)) {
    if (value !== undefined && passes(name) && (temporal || !name.startsWith('TEMPORAL_'))) env[name] = value;
  }
  env.PATH ??= DEFAULT_PATH;
  const secretNames = new Set(shell.secretEnv);
  for (const [name, value] of Object.entries(planEnv ?? {})) {
    if (typeof value === 'string') {
      env[name] = value;
      continue;
    }
    const source = value?.fromWorkerEnv;
    if (typeof source !== 'string' || !secretNames.has(source)) {
      throw new ExecutorError(
        `env.${name}: fromWorkerEnv "${String(source)}" is not listed in worker.shell.secretEnv ` +
          `of this worker; a task may only take the worker variables its operator lists there`,
        { nonRetryable: true, type: 'TeamShellEnvRefused' },
      );
    }
    const resolved = ctx.env[source];
    if (resolved === undefined) {
      throw new ExecutorError(`env.${name}: fromWorkerEnv "${source}" is not set in this worker's environment`, {
        nonRetryable: true,
        type: 'TeamShellEnvRefused',
      });
    }
    env[name] = resolved;
  }
  // The worker's own cluster, only when the operator opts in (credentials only if passed on too).
  const cluster: Record<string, string> = temporal
    ? { TEMPORAL_ADDRESS: ctx.config.connection.address, TEMPORAL_NAMESPACE: ctx.config.connection.namespace }
    : {};
  return { ...env, ...cluster, ...attemptEnv(ctx), TEAMRUN_HOLDER: ctx.holder, ...extra, ...gatewayEnv(ctx, env.PATH) };
}

/**
 * What `teamrun send|inbox|add-tasks` inside the task use to speak as the attempt (the plan cannot
 * set them), and a PATH on which `teamrun` is the worker's own.
 */
function gatewayEnv(ctx: ExecutorContext, pathList: string): Record<string, string> {
  const access = ctx.attemptGateway;
  if (!access) return {};
  return {
    TEAMRUN_ATTEMPT_SOCKET: access.socket,
    TEAMRUN_ATTEMPT_SECRET: access.secret,
    ...(access.binDir ? { PATH: `${access.binDir}${path.delimiter}${pathList}` } : {}),
  };
}

/** The variable a process of this attempt carries, by which the worker finds it if it detached. */
export function environmentMarker(ctx: ExecutorContext): string {
  return `TEAMRUN_LEASE_ID=${ctx.leaseId}\0`;
}

/**
 * Dependency outputs, for the task: always as a file (`TEAMRUN_INPUTS_FILE`, removed when the
 * attempt ends), and inline (`TEAMRUN_INPUTS`) while small, since the environment has a size limit.
 * The file is in the worker's gateway directory when it has one: if the worker dies before the
 * attempt ends, the next worker to start on the host removes it with that directory
 * (gateway/leftovers.ts).
 */
export function writeInputs(
  ctx: Pick<ExecutorContext, 'dependencyOutputs' | 'inbox' | 'attemptGateway'>,
  inlineMaxBytes: number,
): { env: Record<string, string>; dir: string; remove(): void } {
  const json = JSON.stringify(ctx.dependencyOutputs);
  const home = ctx.attemptGateway ? path.dirname(ctx.attemptGateway.socket) : os.tmpdir();
  const dir = mkdtempSync(path.join(home, 'teamrun-inputs-'));
  const file = path.join(dir, 'inputs.json');
  writeFileSync(file, json, { mode: 0o600 });
  // The mailbox messages waiting when the attempt started; `teamrun inbox` reads newer ones.
  const inboxFile = path.join(dir, 'inbox.json');
  writeFileSync(inboxFile, JSON.stringify(ctx.inbox), { mode: 0o600 });
  const env: Record<string, string> = { TEAMRUN_INPUTS_FILE: file, TEAMRUN_INBOX: inboxFile };
  if (Buffer.byteLength(json) <= inlineMaxBytes) env.TEAMRUN_INPUTS = json;
  return { env, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The directory the command runs in, checked: it exists, and it is inside `worker.shell.cwdRoot`
 * when one is set (relative paths are taken from there; symlinks and `..` cannot leave it).
 */
export function resolveCwd(cwd: string | undefined, shell: ShellConfig): string | undefined {
  const root = shell.cwdRoot;
  const wanted = root ? path.resolve(root, cwd ?? '.') : cwd;
  if (wanted === undefined) return undefined;
  let real: string;
  try {
    real = realpathSync(wanted);
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ExecutorError(
      `cwd "${cwd ?? wanted}" ` +
        `${missing ? 'does not exist' : `is not a usable directory (${(err as Error).message})`}` +
        `${wanted !== cwd ? ` (resolved to ${wanted})` : ''}`,
      {
        nonRetryable: true,
        type: 'TeamShellBadCwd',
      },
    );
  }
  if (root) {
    const realRoot = realpathSync(root);
    const inside = path.relative(realRoot, real);
    if (inside.startsWith('..') || path.isAbsolute(inside)) {
      throw new ExecutorError(
        `cwd "${cwd}" resolves to ${real}, outside worker.shell.cwdRoot ` +
          `(${realRoot}); tasks on this worker may only run inside it`,
        {
          nonRetryable: true,
          type: 'TeamShellCwdRefused',
        },
      );
    }
  }
  return real;
}

/**
 * `worker.shell.allowCommands`: a command runs only if one pattern matches all of it. A pattern
 * written `/.../` is a regular expression; any other is a glob where `*` matches any text.
 */
export function checkCommand(command: string, patterns: ReadonlyArray<string> | undefined): void {
  if (!patterns) return;
  const matches = patterns.some((p) => {
    const regex = /^\/(.*)\/$/s.exec(p);
    if (regex) return new RegExp(`^(?:${regex[1]})$`, 's').test(command);
    return new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 's').test(command);
  });
  if (!matches) {
    const shown = command.length > 200 ? `${command.slice(0, 200)}...` : command;
    throw new ExecutorError(
      `command refused: "${shown}" matches none of worker.shell.allowCommands ` +
        `(${patterns.map((p) => JSON.stringify(p)).join(', ') || 'empty: no command may run'})`,
      { nonRetryable: true, type: 'TeamShellCommandRefused' },
    );
  }
}
