/**
 * Arize Phoenix, the trace viewer for teamrun's traces on this machine (`npm run phoenix`,
 * `teamrun dev --tracing`): `arize-phoenix` from PyPI at the version pinned here, installed once
 * into a venv of its own, `.teamrun/phoenix-venv/` (never globally; its wheel ships the built UI),
 * beside the Python helper's `.teamrun/venv`, which should not see Phoenix's many dependencies.
 *
 * Phoenix takes OTLP over HTTP (protobuf only) on `<port>/v1/traces` and over gRPC on its gRPC
 * port, serves its UI, REST API (`/v1/projects/<project>/spans`) and GraphQL (`/graphql`) on the
 * same HTTP port, and keeps what it receives in SQLite under its working directory.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TeamrunError } from '../errors';
import { projectRoot } from './binary';

export const PHOENIX_PACKAGE = 'arize-phoenix';
export const PHOENIX_VERSION = '20.26.1';

export class PhoenixError extends TeamrunError {
  constructor(
    readonly code: 'PHOENIX_NO_PYTHON' | 'PHOENIX_INSTALL_FAILED' | 'PHOENIX_NOT_READY',
    message: string,
  ) {
    super(message);
  }
}

export function phoenixVenv(root = projectRoot()): string {
  return path.join(root, '.teamrun', 'phoenix-venv');
}

/** The venv's `phoenix` command, installed (python3 -m venv, pip install) unless it already is at this version. */
export function ensurePhoenix(log: (line: string) => void, version = PHOENIX_VERSION): string {
  const venv = phoenixVenv();
  const bin = path.join(venv, 'bin', 'phoenix');
  const stamp = path.join(venv, '.teamrun-stamp');
  const want = `${PHOENIX_PACKAGE}==${version}`;
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return bin;
  const python = process.env.TEAMRUN_PYTHON || 'python3';
  const check = spawnSync(python, ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)']);
  if (check.error || check.status !== 0)
    throw new PhoenixError(
      'PHOENIX_NO_PYTHON',
      `Phoenix needs Python 3.10+ as ${python} (TEAMRUN_PYTHON names another)`,
    );
  const began = Date.now();
  log(`installing ${want} into ${venv} (once; about a minute)`);
  mkdirSync(path.dirname(venv), { recursive: true });
  const run = (command: string, args: string[]) => {
    const done = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (done.error || done.status !== 0)
      throw new PhoenixError(
        'PHOENIX_INSTALL_FAILED',
        `${path.basename(command)} ${args.slice(0, 3).join(' ')} failed: ` +
          `${(done.error?.message ?? done.stderr ?? '').trim().slice(-1500)}`,
      );
  };
  if (!existsSync(path.join(venv, 'bin', 'python'))) run(python, ['-m', 'venv', venv]);
  run(path.join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', want]);
  if (!existsSync(bin)) throw new PhoenixError('PHOENIX_INSTALL_FAILED', `${want} installed no ${bin}`);
  writeFileSync(stamp, want);
  log(`installed ${want} in ${((Date.now() - began) / 1000).toFixed(0)} s`);
  return bin;
}

export interface PhoenixPorts {
  /** UI, REST, GraphQL and OTLP/HTTP (`/v1/traces`). */
  http: number;
  /** OTLP over gRPC (unused by teamrun, but Phoenix always opens it). */
  grpc: number;
}

export const DEFAULT_PHOENIX_PORTS: PhoenixPorts = { http: 6006, grpc: 4317 };

export interface RunningPhoenix {
  process: ChildProcess;
  /** For `OTEL_EXPORTER_OTLP_ENDPOINT` (teamrun adds `/v1/traces`). */
  otlpEndpoint: string;
  /** The UI, `/v1/...` REST and `/graphql`. */
  url: string;
  stop(): Promise<void>;
}

/**
 * What Phoenix is started with: on 127.0.0.1 only, its SQLite under `workingDir`, and nothing that
 * reaches out or acts on its own (no usage pixels, no web fonts, no assistant, no server-side bash,
 * no MCP endpoint): it is a viewer here.
 */
export function phoenixEnv(ports: PhoenixPorts, workingDir: string): NodeJS.ProcessEnv {
  return {
    PHOENIX_HOST: '127.0.0.1',
    PHOENIX_PORT: String(ports.http),
    PHOENIX_GRPC_PORT: String(ports.grpc),
    PHOENIX_WORKING_DIR: workingDir,
    PHOENIX_TELEMETRY_ENABLED: 'false',
    PHOENIX_ALLOW_EXTERNAL_RESOURCES: 'false',
    PHOENIX_DISABLE_AGENT_ASSISTANT: 'true',
    PHOENIX_AGENTS_DISABLE_BASH: 'true',
    PHOENIX_ENABLE_MCP_SERVER: 'false',
  };
}

/** Installs Phoenix if needed, starts it, and resolves once it answers `/healthz` (its start takes 10-60 s). */
export async function startPhoenix(
  options: { ports?: PhoenixPorts; workingDir?: string; log?: (line: string) => void; readyWithinMs?: number } = {},
): Promise<RunningPhoenix> {
  const log = options.log ?? (() => undefined);
  const ports = options.ports ?? DEFAULT_PHOENIX_PORTS;
  const workingDir = options.workingDir ?? path.join(projectRoot(), '.teamrun', 'phoenix');
  mkdirSync(workingDir, { recursive: true });
  const bin = ensurePhoenix(log);
  const child = spawn(bin, ['serve'], {
    env: { ...process.env, ...phoenixEnv(ports, workingDir) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
  const url = `http://127.0.0.1:${ports.http}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + (options.readyWithinMs ?? 180_000);
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { process: child, otlpEndpoint: url, url, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new PhoenixError(
    'PHOENIX_NOT_READY',
    `Phoenix did not answer on ${url}/healthz: ${stderr.trim().slice(-1000)}`,
  );
}
