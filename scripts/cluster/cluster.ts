import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { findTemporalBinary, projectRoot } from '../../src/devserver/binary';
import {
  SEARCH_ATTRIBUTE_TYPES,
  TeamName,
  TeamRunBudgetStopped,
  TeamRunPendingAdjudications,
  TeamRunStatus,
} from '../../src/workflows/search-attributes';
import { alive } from '../../test/helpers/processes';
import { ensureServerBuild, type ServerBuild } from './build';
import { initPostgres, postgresRunning, startPostgres, stopPostgres, type Postgres } from './postgres';

/**
 * A production-shaped Temporal on this machine: PostgreSQL for persistence and visibility, and
 * frontend, history, matching and worker as four server processes from one config file, all on
 * 127.0.0.1. Its state (ports, pids) is a JSON file, so `--stop`, the tests' fault injection
 * and a second `npm run cluster` all find the same processes.
 */
export const SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
export type Service = (typeof SERVICES)[number];
const NAMESPACE = 'default';
const HISTORY_SHARDS = 4;

export interface ClusterPorts {
  postgres: number;
  /** gRPC, membership (ringpop) and Prometheus metrics of each service; the frontend also HTTP. */
  grpc: Record<Service, number>;
  membership: Record<Service, number>;
  metrics: Record<Service, number>;
  frontendHttp: number;
}

export interface ClusterState {
  version: string;
  ports: ClusterPorts;
  pids: Partial<Record<Service, number>>;
}

export const clusterDir = () => path.join(projectRoot(), '.teamrun', 'cluster');
const runDir = () => path.join(clusterDir(), 'run');
const stateFile = () => path.join(runDir(), 'state.json');
const configFile = () => path.join(runDir(), 'temporal.yaml');
const serviceLog = (service: Service) => path.join(runDir(), `${service}.log`);

/**
 * Fixed ports from `TEAMRUN_CLUSTER_PORT` (the frontend, default 17233) upwards: below the
 * ephemeral range the dev servers of `npm test` draw from, and the same on every start, so an
 * address written down stays right.
 */
function clusterPorts(raw = process.env.TEAMRUN_CLUSTER_PORT ?? '17233'): ClusterPorts {
  const frontend = Number(raw);
  if (!Number.isInteger(frontend) || frontend < 1025 || frontend > 65_500) {
    throw Object.assign(
      new Error(
        `TEAMRUN_CLUSTER_PORT=${raw}: must be a port from 1025 to 65500 (the cluster takes it and the 13 above it, and the one below)`,
      ),
      {
        code: 'CLUSTER_PORT_INVALID',
      },
    );
  }
  return {
    postgres: frontend - 1,
    grpc: { frontend, history: frontend + 3, matching: frontend + 5, worker: frontend + 7 },
    membership: { frontend: frontend + 2, history: frontend + 4, matching: frontend + 6, worker: frontend + 8 },
    metrics: { frontend: frontend + 10, history: frontend + 11, matching: frontend + 12, worker: frontend + 13 },
    frontendHttp: frontend + 1,
  };
}

export function postgresOf(ports: ClusterPorts): Postgres {
  return { dir: postgresDir(), port: ports.postgres, user: 'temporal', password: 'temporal' };
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which cannot enter `.teamrun/` (0700, owned by
 * root): its data dir then lives in the system's temporary directory, one per checkout.
 */
function postgresDir(): string {
  if (process.getuid?.() !== 0) return path.join(clusterDir(), 'pg');
  const checkout = createHash('sha256').update(clusterDir()).digest('hex').slice(0, 12);
  return path.join(os.tmpdir(), `teamrun-cluster-pg-${checkout}`);
}

export function readState(): ClusterState | null {
  return existsSync(stateFile()) ? (JSON.parse(readFileSync(stateFile(), 'utf8')) as ClusterState) : null;
}

function writeState(state: ClusterState): void {
  mkdirSync(runDir(), { recursive: true });
  writeFileSync(stateFile(), `${JSON.stringify(state, null, 2)}\n`);
}

const frontendAddress = (state: ClusterState) => `127.0.0.1:${state.ports.grpc.frontend}`;

/** The one config every service process reads; only the metrics port differs per process (templated). */
function renderConfig(ports: ClusterPorts, pg: Postgres): string {
  const store = (database: string, maxConns: number) => `      sql:
        pluginName: postgres12
        databaseName: ${database}
        connectAddr: "127.0.0.1:${pg.port}"
        connectProtocol: tcp
        user: ${pg.user}
        password: ${pg.password}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: 1h`;
  const service = (name: Service) => `  ${name}:
    rpc:
      grpcPort: ${ports.grpc[name]}
      membershipPort: ${ports.membership[name]}
      bindOnIP: 127.0.0.1${name === 'frontend' ? `\n      httpPort: ${ports.frontendHttp}` : ''}`;
  return `# enable-template
# Written by \`npm run cluster\` (scripts/cluster/cluster.ts); every service process reads this file.
log:
  stdout: true
  level: ${process.env.TEAMRUN_CLUSTER_LOG_LEVEL ?? 'warn'}
persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: ${HISTORY_SHARDS}
  datastores:
    postgres-default:
${store('temporal', 20)}
    postgres-visibility:
${store('temporal_visibility', 10)}
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
  metrics:
    prometheus:
      framework: tally
      timerType: histogram
      listenAddress: '127.0.0.1:{{ env "TEMPORAL_METRICS_PORT" }}'
services:
${SERVICES.map(service).join('\n')}
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: 127.0.0.1:${ports.grpc.frontend}
      httpAddress: 127.0.0.1:${ports.frontendHttp}
dcRedirectionPolicy:
  policy: noop
dynamicConfigClient:
  filepath: ${path.join(runDir(), 'dynamicconfig.yaml')}
  pollInterval: 10s
`;
}

const DYNAMIC_CONFIG = `# Written by \`npm run cluster\`. Defaults everywhere else, as a fresh self-hosted cluster has them.
limit.maxIDLength:
  - value: 255
frontend.enableUpdateWorkflowExecution:
  - value: true
frontend.enableUpdateWorkflowExecutionAsyncAccepted:
  - value: true
`;

/** Starts one service process of the cluster (detached: it outlives whoever started it) and records its pid. */
export async function startService(build: ServerBuild, state: ClusterState, service: Service): Promise<number> {
  const log = openSync(serviceLog(service), 'a');
  const child = spawn(build.server, ['--config-file', configFile(), '--allow-no-auth', 'start', '--service', service], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...process.env, TEMPORAL_METRICS_PORT: String(state.ports.metrics[service]) },
  });
  child.unref();
  const pid = child.pid!;
  state.pids[service] = pid;
  writeState(state);
  await waitUntil(`${service} to listen on 127.0.0.1:${state.ports.grpc[service]}`, 60_000, async () => {
    if (!alive(pid)) throw new Error(`${service} exited at start; see ${serviceLog(service)}`);
    return listening(state.ports.grpc[service]);
  });
  return pid;
}

/** Ends one service: SIGKILL is the crash the tests inject; SIGTERM a clean stop (SIGKILL after 15 s). */
export async function stopService(
  state: ClusterState,
  service: Service,
  signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM',
): Promise<void> {
  const pid = state.pids[service];
  if (pid && serviceRunning(pid, service)) {
    signalPid(pid, signal);
    const deadline = Date.now() + 15_000;
    while (alive(pid)) {
      if (Date.now() > deadline) signalPid(pid, 'SIGKILL');
      await sleep(50);
    }
  }
  delete state.pids[service];
  writeState(state);
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

/** Whether `pid` is still this cluster's `service` process (a pid from an earlier boot may belong to anything now). */
export function serviceRunning(pid: number, service: Service): boolean {
  if (!alive(pid)) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv.some((a) => a.endsWith('temporal-server')) && argv.includes(service);
  } catch {
    return false;
  }
}

function sqlTool(build: ServerBuild, pg: Postgres, database: string, args: string[]): void {
  const result = spawnSync(
    build.sqlTool,
    [
      '--plugin',
      'postgres12',
      '--endpoint',
      '127.0.0.1',
      '--port',
      String(pg.port),
      '--user',
      pg.user,
      '--password',
      pg.password,
      '--database',
      database,
      ...args,
    ],
    { encoding: 'utf8' },
  );
  if (result.status !== 0)
    throw Object.assign(new Error(`temporal-sql-tool ${args[0]} on ${database} failed: ${result.stderr}`), {
      code: 'SCHEMA_FAILED',
    });
}

/** Creates both databases once, then migrates each to the version's newest schema (a no-op when current). */
function migrate(build: ServerBuild, pg: Postgres, log: (line: string) => void): void {
  for (const [database, schema] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ] as const) {
    const created = path.join(pg.dir, `${database}.created`);
    if (!existsSync(created)) {
      sqlTool(build, pg, database, ['create-database']);
      sqlTool(build, pg, database, ['setup-schema', '-v', '0.0']);
      writeFileSync(created, '');
      log(`created database ${database}`);
    }
    sqlTool(build, pg, database, ['update-schema', '--schema-dir', path.join(build.schemaDir, schema, 'versioned')]);
  }
}

const execFileP = promisify(execFile);

async function temporalCli(address: string, args: string[]): Promise<string> {
  const { stdout } = await execFileP(findTemporalBinary(), [...args, '--address', address], { encoding: 'utf8' });
  return stdout;
}

/** The namespace and teamrun's search attributes, with the `temporal` CLI as an operator would. */
async function registerNamespace(address: string, log: (line: string) => void): Promise<void> {
  const describe = await temporalCli(address, [
    'operator',
    'namespace',
    'describe',
    '--namespace',
    NAMESPACE,
    '--output',
    'json',
  ]).catch(() => null);
  if (!describe) {
    await temporalCli(address, ['operator', 'namespace', 'create', '--namespace', NAMESPACE, '--retention', '72h']);
    log(`registered namespace ${NAMESPACE}`);
  }
  const existing = await waitUntil(`namespace ${NAMESPACE} to be usable`, 60_000, () =>
    temporalCli(address, ['operator', 'search-attribute', 'list', '--namespace', NAMESPACE, '--output', 'json']),
  );
  const missing = Object.entries(SEARCH_ATTRIBUTE_TYPES).filter(([name]) => !existing.includes(`"${name}"`));
  if (missing.length > 0) {
    await temporalCli(address, [
      'operator',
      'search-attribute',
      'create',
      '--namespace',
      NAMESPACE,
      ...missing.flatMap(([name, type]) => ['--name', name, '--type', type]),
    ]);
    log(`registered search attributes ${missing.map(([name, type]) => `${name} (${type})`).join(', ')}`);
  }
}

/**
 * Waits until a workflow can be started with all four search attributes: the namespace has
 * reached every service's cache and history owns its shards. The probe is terminated at once.
 */
async function probe(address: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection, namespace: NAMESPACE });
    await waitUntil(
      "the cluster to accept a workflow with teamrun's search attributes",
      120_000,
      async () => {
        const handle = await client.workflow.start('teamrunClusterProbe', {
          taskQueue: 'teamrun-cluster-probe',
          workflowId: `teamrun-cluster-probe-${Date.now()}`,
          typedSearchAttributes: [
            { key: TeamName, value: 'teamrun-cluster-probe' },
            { key: TeamRunStatus, value: 'Running' },
            { key: TeamRunPendingAdjudications, value: 0 },
            { key: TeamRunBudgetStopped, value: false },
          ],
        });
        await handle.terminate('probe');
        return true;
      },
      1_000,
    );
  } finally {
    await connection.close();
  }
}

export interface StartOptions {
  log?: (line: string) => void;
}

/** `npm run cluster`: build once, PostgreSQL, schemas, the four services, namespace and search attributes. */
export async function startCluster(
  options: StartOptions = {},
): Promise<{ state: ClusterState; build: ServerBuild; address: string }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`cluster: ${line}\n`));
  const build = ensureServerBuild(log);
  const previous = readState();
  const ports = previous?.ports ?? clusterPorts();
  const state: ClusterState = { version: build.version, ports, pids: previous?.pids ?? {} };
  mkdirSync(runDir(), { recursive: true });
  writeFileSync(configFile(), renderConfig(ports, postgresOf(ports)));
  writeFileSync(path.join(runDir(), 'dynamicconfig.yaml'), DYNAMIC_CONFIG);
  writeState(state);

  const pg = postgresOf(ports);
  initPostgres(pg);
  if (!postgresRunning(pg)) {
    await refuseTaken(ports.postgres, 'PostgreSQL');
    startPostgres(pg);
    log(`PostgreSQL on 127.0.0.1:${pg.port} (data in ${pg.dir})`);
  }
  migrate(build, pg, log);
  for (const service of SERVICES) {
    const pid = state.pids[service];
    if (pid && serviceRunning(pid, service)) continue;
    await refuseTaken(ports.grpc[service], `the ${service} service`);
    await startService(build, state, service);
    log(`${service} started (pid ${state.pids[service]}, log ${serviceLog(service)})`);
  }
  const address = frontendAddress(state);
  await registerNamespace(address, log);
  await probe(address);
  return { state, build, address };
}

/** `npm run cluster -- --stop`: the services (frontend first, so clients stop arriving), then PostgreSQL. */
export async function stopCluster(
  log: (line: string) => void = (line) => process.stderr.write(`cluster: ${line}\n`),
): Promise<void> {
  const state = readState();
  if (!state) {
    log('no cluster state (nothing started from this checkout)');
    return;
  }
  for (const service of ['frontend', 'worker', 'matching', 'history'] as const) {
    if (state.pids[service]) {
      await stopService(state, service);
      log(`${service} stopped`);
    }
  }
  const pg = postgresOf(state.ports);
  if (postgresRunning(pg)) {
    stopPostgres(pg);
    log('PostgreSQL stopped');
  }
  rmSync(stateFile(), { force: true });
}

export function listening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function refuseTaken(port: number, what: string): Promise<void> {
  if (await listening(port)) {
    throw Object.assign(
      new Error(
        `port ${port} for ${what} is taken by another process: stop it, or choose other ports with TEAMRUN_CLUSTER_PORT`,
      ),
      {
        code: 'CLUSTER_PORT_TAKEN',
      },
    );
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntil<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T> | T,
  everyMs = 250,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
      if ((err as Error).message.includes('exited at start')) throw err;
    }
    if (Date.now() > deadline)
      throw Object.assign(new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`), {
        code: 'CLUSTER_TIMEOUT',
      });
    await sleep(everyMs);
  }
}
