import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { findTemporalBinary } from '../src/devserver/binary';
import { freePort, startDevServer, withParentGuard, type DevServer } from '../src/devserver/server';

const root = path.resolve(__dirname, '..');

/** Everything one benchmark session runs on: its own dev server, workflow bundle, worker config and client. */
export interface BenchEnv {
  dir: string;
  server: DevServer;
  client: Client;
  bundlePath: string;
  /** The bare baseline's own bundle: bench/bare-workflows.ts, the bare fan-out and nothing else. */
  bareBundlePath: string;
  /** The bare worker (bench/bare-worker.ts) compiled to plain JavaScript: it runs without a loader. */
  bareWorkerPath: string;
  configPath: string;
  temporalVersion: string;
  /** The dev server's Prometheus endpoint. */
  metricsUrl: string;
  /** Writes a worker config with `maxConcurrentAttempts` slots (and a sticky timeout, if given); returns its path. */
  workerConfig(maxConcurrentAttempts: number, stickyScheduleToStartMs?: number): string;
  close(): Promise<void>;
}

export async function startBenchEnv(options: { serverArgs?: string[] } = {}): Promise<BenchEnv> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-bench-'));
  const binary = findTemporalBinary();
  const [port, metricsPort, bundle, bareBundle] = await Promise.all([
    freePort(),
    freePort(),
    bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'workflows.ts'), logger: quietLogger }),
    // Built as teamrun's own bundle is (scripts/build.js): a source map without the sources' text.
    bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'bare-workflows.ts'),
      logger: quietLogger,
      webpackConfigHook: (config) => ({ ...config, devtool: 'inline-nosources-cheap-source-map' }),
    }),
  ]);
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, bundle.code);
  const bareBundlePath = path.join(dir, 'bare-workflow-bundle.js');
  writeFileSync(bareBundlePath, bareBundle.code);
  const bareWorkerPath = compileBareWorker(dir);
  const workerConfig = (slots: number, stickyMs?: number) => {
    const file = path.join(dir, `bench-worker-${slots}-${stickyMs ?? 'default'}.yaml`);
    // The defaults, written out so the worker never picks up a temporal.yaml from the working directory.
    const sticky = stickyMs === undefined ? '' : `  stickyScheduleToStartMs: ${stickyMs}\n`;
    writeFileSync(file, `worker:\n  maxConcurrentAttempts: ${slots}\n  shutdownGraceMs: 500\n${sticky}`);
    return file;
  };
  const configPath = workerConfig(64);
  const server = await startDevServer({
    binary,
    port,
    dbFile: path.join(dir, 'bench.db'),
    headless: true,
    // A bench killed mid-run (a signal its `finally` never sees) takes its server with it, not left idling under the next.
    stopWithParent: true,
    extraArgs: ['--metrics-port', String(metricsPort), ...(options.serverArgs ?? [])],
  });
  // A 100,000-task tree's root history is past gRPC's default 4 MiB answer (5.0 MB seen): the bench reads it whole.
  const connection = await Connection.connect({
    address: server.address,
    channelArgs: { 'grpc.max_receive_message_length': 128 * 1024 * 1024 },
  });
  const client = new Client({ connection });
  const version = await new Promise<string>((resolve) => {
    const child = spawn(binary, ['--version']);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', () => resolve(out.trim()));
  });
  return {
    dir,
    server,
    client,
    bundlePath,
    bareBundlePath,
    bareWorkerPath,
    configPath,
    temporalVersion: version,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    workerConfig,
    async close() {
      await connection.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  taskQueue: string;
  /** Everything the worker printed. */
  logFile: string;
  /** Peak resident memory so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/** A real worker process (bench/worker.ts: teamrun's worker plus the bare activity) on `taskQueue`, running the bench bundle. */
export async function spawnWorker(
  env: BenchEnv,
  taskQueue: string,
  identity: string,
  configPath = env.configPath,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<WorkerProcess> {
  // BENCH_CPU_PROF=<dir>: each worker writes a V8 CPU profile there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return spawnWith([...profile, '--import', 'tsx', path.join(root, 'bench/worker.ts')], env, taskQueue, identity, {
    TEAMRUN_WORKFLOW_BUNDLE: env.bundlePath,
    TEAMRUN_CONFIG: configPath,
    ...extraEnv,
  });
}

/**
 * `teamrun worker` as users start it (the built CLI, dist/: run `npm run build` first), with its
 * shipped workflow bundle and the default config (the checkout's teamrun.yaml, which holds the
 * defaults: 64 attempt slots, as the bare worker has); `nodeArgs` go to node (e.g. `--cpu-prof`).
 */
export async function spawnCliWorker(
  env: BenchEnv,
  taskQueue: string,
  identity: string,
  nodeArgs: string[] = [],
  // BENCH_TEAMRUN_DIST: another build to compare (a copy of dist/ from before a change).
  dist = process.env.BENCH_TEAMRUN_DIST ?? 'dist',
): Promise<WorkerProcess> {
  const main = path.join(path.resolve(root, dist), 'main.js');
  return spawnWith([...nodeArgs, main, 'worker', '--identity', identity], env, taskQueue, identity, {
    TEAMRUN_CONFIG: undefined,
  });
}

/**
 * The bare baseline's own worker (bench/bare-worker.ts, compiled: plain node, no loader): a plain
 * Temporal worker with its own bundle (the bare fan-out only) and the bare activities.
 */
export async function spawnBareWorker(
  env: BenchEnv,
  taskQueue: string,
  identity: string,
  nodeArgs: string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<WorkerProcess> {
  return spawnWith([...nodeArgs, env.bareWorkerPath], env, taskQueue, identity, {
    TEAMRUN_WORKFLOW_BUNDLE: env.bareBundlePath,
    // The compiled worker lives in the bench's temp dir: it finds @temporalio/* in the checkout's node_modules.
    NODE_PATH: path.join(root, 'node_modules'),
    ...extraEnv,
  });
}

/**
 * bench/bare-worker.ts and the bare activities, compiled to CommonJS in `dir` by the project's
 * tsc (what a user who writes the worker by hand would run: `node bare-worker.js`); returns its path.
 */
function compileBareWorker(dir: string): string {
  const out = path.join(dir, 'bare');
  const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
  const options = ['--outDir', out, '--module', 'node16', '--target', 'es2022', '--types', 'node', '--noCheck'];
  execFileSync(tsc, ['--ignoreConfig', path.join(__dirname, 'bare-worker.ts'), ...options], { stdio: 'inherit' });
  return path.join(out, 'bare-worker.js');
}

async function spawnWith(
  argv: string[],
  env: BenchEnv,
  taskQueue: string,
  identity: string,
  extraEnv: NodeJS.ProcessEnv,
): Promise<WorkerProcess> {
  // Ended with the bench (setpriv execs node: the pid, and so cpuMs, is the worker's), not left polling a dead server.
  const [command, args] = withParentGuard(process.execPath, argv, true);
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: env.server.address,
      TEAMRUN_TASK_QUEUE: taskQueue,
      TEAMRUN_WORKER_IDENTITY: identity,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // Everything the worker logs, kept in the bench's temp dir (or BENCH_WORKER_LOGS) for a look after a surprise.
  const logFile = path.join(process.env.BENCH_WORKER_LOGS ?? env.dir, `worker-${identity}.log`);
  const keep = (d: string) => {
    out = (out + d).slice(-20_000);
    appendFileSync(logFile, d);
  };
  child.stdout!.setEncoding('utf8').on('data', keep);
  child.stderr!.setEncoding('utf8').on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (!out.includes('teamrun worker ready')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`worker ${identity} did not start:\n${out}`);
    await sleep(50);
  }
  return {
    child,
    pid: child.pid!,
    taskQueue,
    logFile,
    peakRssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms; a busy machine slows wall time, not this. */
export function cpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** The CPU time in a `/proc/<pid>/stat` or `/proc/<pid>/task/<tid>/stat` line, in ms. */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it returns a truthy value. */
export async function until<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 120_000,
  everyMs = 20,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: console.error };
