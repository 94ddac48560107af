import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { builtServer, type ServerBuild } from '../../scripts/cluster/build';
import {
  SERVICES,
  clusterDir,
  listening,
  postgresOf,
  readState,
  serviceRunning,
  startService,
  stopService,
  type ClusterState,
  type Service,
} from '../../scripts/cluster/cluster';
import { postgresRunning, startPostgres, stopPostgres } from '../../scripts/cluster/postgres';
import { alive } from '../helpers/processes';
import { onTestFinished } from 'vitest';
import { spawnWorkerProcess, temporalAddress, temporalBinary, waitFor, type WorkerProcess } from '../helpers/env';

/** Whether the cluster of this checkout runs: PostgreSQL and all four services. */
export function clusterUp(): boolean {
  const state = readState();
  return (
    !!state &&
    postgresRunning(postgresOf(state.ports)) &&
    SERVICES.every((s) => state.pids[s] !== undefined && serviceRunning(state.pids[s]!, s))
  );
}

function current(): { state: ClusterState; build: ServerBuild } {
  const state = readState();
  const build = state && builtServer(state.version);
  if (!state || !build) throw new Error('no cluster: the global setup starts one (npm run cluster)');
  return { state, build };
}

export function clusterState(): ClusterState {
  return current().state;
}

export interface Outage {
  /** From the fault until the process (or PostgreSQL) listens again. */
  downMs: number;
}

/**
 * kill -9 one service process, then start it again from the same config, at once or after
 * `downForMs` (the length of the outage is the fault's parameter); resolves once it listens.
 */
export async function crashAndRestart(service: Service, downForMs = 0): Promise<Outage> {
  const { state, build } = current();
  const pid = state.pids[service]!;
  const began = Date.now();
  await stopService(state, service, 'SIGKILL');
  if (alive(pid)) throw new Error(`${service} (pid ${pid}) survived SIGKILL`);
  if (downForMs > 0) await new Promise((r) => setTimeout(r, downForMs));
  await startService(build, state, service);
  return { downMs: Date.now() - began };
}

/** Stops one service (SIGKILL: a crash; SIGTERM: a clean stop) and starts it again once `whileDown` has run. */
export async function restartAround(
  service: Service,
  signal: 'SIGKILL' | 'SIGTERM',
  whileDown: () => void | Promise<void>,
): Promise<Outage> {
  const { state, build } = current();
  const began = Date.now();
  await stopService(state, service, signal);
  await whileDown();
  await startService(build, state, service);
  return { downMs: Date.now() - began };
}

/** PostgreSQL stopped in `immediate` mode (no checkpoint: recovery replays the WAL, as after a crash) and started again. */
export async function restartPostgres(): Promise<Outage> {
  const pg = postgresOf(current().state.ports);
  const began = Date.now();
  stopPostgres(pg, 'immediate');
  startPostgres(pg);
  await waitFor('PostgreSQL to listen', () => listening(pg.port), 60_000);
  return { downMs: Date.now() - began };
}

/** Prints a measured figure and keeps it in .teamrun/cluster/figures.log for docs/deploy.md. */
export function figure(line: string): void {
  process.stdout.write(`[cluster] ${line}\n`);
  mkdirSync(clusterDir(), { recursive: true });
  appendFileSync(path.join(clusterDir(), 'figures.log'), `${new Date().toISOString()} ${line}\n`);
}

const run = promisify(execFile);
/** Worker processes with room for 64 attempts each. */
export const workerConfig = path.join(__dirname, 'worker.yaml');

/** The `temporal` CLI against the cluster's frontend, as an operator would list runs. */
export async function temporal(...args: string[]): Promise<string> {
  const { stdout } = await run(temporalBinary(), [...args, '--address', temporalAddress()], { timeout: 30_000 });
  return stdout;
}

export async function listed(query: string): Promise<string[]> {
  const rows = JSON.parse(await temporal('workflow', 'list', '--query', query, '--output', 'json')) as Array<{
    execution: { workflowId: string };
  }>;
  return rows.map((r) => r.execution.workflowId);
}

/** A worker process (on 127.0.0.1) that serves its SDK metrics at `metricsAddress`; killed when the test ends. */
export async function spawnWorkerWithMetrics(
  taskQueue: string,
  identity: string,
  metricsAddress: string,
): Promise<WorkerProcess> {
  const worker = await spawnWorkerProcess({
    taskQueue,
    identity,
    config: workerConfig,
    env: { TEAMRUN_METRICS_ADDRESS: metricsAddress },
  });
  onTestFinished(async () => {
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
  });
  return worker;
}

/** The sum of a Prometheus metric's samples (every label set) at `url`, filtered by a label substring. */
export async function metricSum(url: string, name: string, labelIncludes = ''): Promise<number> {
  const text = await (await fetch(url)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([0-9.eE+-]+)$/.exec(line);
    if (match && match[1] === name && (match[2] ?? '').includes(labelIncludes)) sum += Number(match[3]);
  }
  return sum;
}
