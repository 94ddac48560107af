/**
 * Jaeger (v2, all-in-one, in-memory) for looking at teamrun's traces on this machine: built once
 * from the Go module proxy with the Go toolchain, as the cluster's Temporal server is
 * (scripts/cluster/build.ts), cached in `.teamrun/jaeger/<version>/`; `npm run jaeger` starts it.
 * Kept for those who want Jaeger: the tests and `teamrun dev --tracing` use Arize Phoenix
 * (phoenix.ts), which needs no build.
 *
 * The module ships no Jaeger UI: `cmd/query/app/ui/actual/` is empty in it (upstream fills it from
 * the jaeger-ui repository before a release build), so the binary serves a placeholder page at
 * `/`; the query API (`/api/traces`, `/api/services`) is complete. `JAEGER_UI_ASSETS` names a
 * directory of a built jaeger-ui to serve instead (Jaeger's `ui.assets_path`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TeamrunError } from '../errors';
import { projectRoot } from './binary';
import { goBuild, type GoBuildFailure } from './go-build';

export const JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
export const JAEGER_VERSION = 'v1.76.0';

export class JaegerError extends TeamrunError {
  constructor(
    readonly code: GoBuildFailure | 'JAEGER_NOT_READY',
    message: string,
  ) {
    super(message);
  }
}

export function jaegerDir(version = JAEGER_VERSION): string {
  return path.join(projectRoot(), '.teamrun', 'jaeger', version);
}

export function jaegerBinary(version = JAEGER_VERSION): string {
  return path.join(jaegerDir(version), 'bin', 'jaeger');
}

/**
 * The jaeger binary at `version`, built (`go build ./cmd/jaeger` inside the downloaded module, so
 * its go.mod applies as upstream builds it) unless it is already; into a scratch directory renamed
 * at the end, so an interrupted build leaves nothing that looks finished.
 */
export function ensureJaegerBuild(log: (line: string) => void, version = JAEGER_VERSION): string {
  const binary = jaegerBinary(version);
  if (existsSync(binary)) return binary;
  const began = Date.now();
  const { scratch } = goBuild({
    what: 'Jaeger',
    module: JAEGER_MODULE,
    version,
    packages: ['./cmd/jaeger'],
    dir: jaegerDir(version),
    output: (bin) => path.join(bin, 'jaeger'),
    fail: (code, message) => new JaegerError(code, message),
    log,
  });
  rmSync(jaegerDir(version), { recursive: true, force: true });
  renameSync(scratch, jaegerDir(version));
  const mb = (statSync(binary).size / 1e6).toFixed(1);
  log(`built Jaeger ${version} in ${((Date.now() - began) / 1000).toFixed(0)} s: jaeger ${mb} MB`);
  return binary;
}

export interface JaegerPorts {
  /** OTLP over HTTP: where teamrun sends spans (`OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:<otlp>`). */
  otlp: number;
  /** The query API and UI. */
  query: number;
  /** The query API over gRPC (unused by teamrun, but Jaeger's query always opens it). */
  queryGrpc: number;
}

export const DEFAULT_JAEGER_PORTS: JaegerPorts = { otlp: 4318, query: 16686, queryGrpc: 16685 };

/**
 * Jaeger's config: OTLP/HTTP in, memory storage, the query API and UI; only on 127.0.0.1, and
 * none of the all-in-one default's other receivers and ports (so tests can run it beside another).
 */
export function jaegerConfig(ports: JaegerPorts, assetsPath?: string): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:${ports.query}
    grpc:
      endpoint: 127.0.0.1:${ports.queryGrpc}
${assetsPath ? `    ui:\n      assets_path: ${JSON.stringify(assetsPath)}\n` : ''}  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 20000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${ports.otlp}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

export interface RunningJaeger {
  process: ChildProcess;
  /** For `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  otlpEndpoint: string;
  /** The query API (`/api/traces/<id>`) and UI. */
  queryUrl: string;
  stop(): Promise<void>;
}

/** Builds Jaeger if needed, starts it with `ports`, and resolves once its query API answers. */
export async function startJaeger(
  options: { ports?: JaegerPorts; log?: (line: string) => void; readyWithinMs?: number } = {},
): Promise<RunningJaeger> {
  const log = options.log ?? (() => undefined);
  const ports = options.ports ?? DEFAULT_JAEGER_PORTS;
  const binary = ensureJaegerBuild(log);
  const configFile = path.join(jaegerDir(), `config-${ports.otlp}-${ports.query}.yaml`);
  writeFileSync(configFile, jaegerConfig(ports, process.env.JAEGER_UI_ASSETS));
  const child = spawn(binary, ['--config', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
  const queryUrl = `http://127.0.0.1:${ports.query}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + (options.readyWithinMs ?? 30_000);
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(`${queryUrl}/api/services`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return { process: child, otlpEndpoint: `http://127.0.0.1:${ports.otlp}`, queryUrl, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new JaegerError('JAEGER_NOT_READY', `Jaeger did not answer on ${queryUrl}: ${stderr.trim().slice(-1000)}`);
}
