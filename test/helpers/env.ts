import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { Executor } from '../../src/activities/executors';
import type { CustomTool } from '../../src/activities/tools';
import type { WorkerHooks } from '../../src/activities/host-hooks';
import { ConfigSchema, type TeamrunConfig } from '../../src/config/config';
import type { TeamPlanInput } from '../../src/plan/schema';
import { startTeamRun, type TeamRunHandle } from '../../src/client';
import { createWorker } from '../../src/worker/create-worker';

const root = path.resolve(__dirname, '..', '..');
let runtimeQuiet = false;

/** The shared dev server's address (started once by global-setup). */
export function temporalAddress(): string {
  return inject('temporalAddress');
}

export function temporalBinary(): string {
  return inject('temporalBinary');
}

let clientPromise: Promise<Client> | undefined;
export function testClient(): Promise<Client> {
  clientPromise ??= Connection.connect({ address: temporalAddress() }).then((connection) => new Client({ connection }));
  return clientPromise;
}

/** A task queue of its own for each test, so tests in parallel never steal each other's work. */
export function uniqueQueue(name: string): string {
  return `${name}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

export function testConfig(
  overrides: Partial<TeamrunConfig['worker']> = {},
  prices: TeamrunConfig['prices'] = {},
): TeamrunConfig {
  const config = ConfigSchema.parse({ prices });
  config.connection.address = temporalAddress();
  Object.assign(config.worker, overrides);
  return config;
}

export interface TestWorker {
  worker: Worker;
  taskQueue: string;
  stop(): Promise<void>;
}

/** An in-process worker on its own queue, using the pre-built workflow bundle. */
export async function startTestWorker(
  options: {
    taskQueue?: string;
    executors?: Record<string, Executor>;
    config?: TeamrunConfig;
    identity?: string;
    env?: NodeJS.ProcessEnv;
    tools?: Record<string, CustomTool>;
    hooks?: WorkerHooks;
  } = {},
): Promise<TestWorker> {
  if (!runtimeQuiet) {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
    runtimeQuiet = true;
  }
  const taskQueue = options.taskQueue ?? uniqueQueue('test');
  const connection = await NativeConnection.connect({ address: temporalAddress() });
  const worker = await createWorker({
    config: options.config ?? testConfig(),
    connection,
    taskQueue,
    identity: options.identity,
    executors: options.executors,
    tools: options.tools,
    hooks: options.hooks,
    env: options.env,
    workflowBundle: { codePath: inject('workflowBundle') },
  });
  const running = worker.run();
  return {
    worker,
    taskQueue,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

export async function startRun(plan: TeamPlanInput, taskQueue: string, workflowId?: string): Promise<TeamRunHandle> {
  const client = await testClient();
  return startTeamRun(client, plan, { taskQueue, workflowId: workflowId ?? uniqueQueue(plan.name) });
}

/**
 * Waits until `check` returns a truthy value, polling; fails with `what` after `timeoutMs`. The default is 60 s: on
 * the shared 2-core machine at load 30+ a claim, a model call or a CLI's output took more than 30 s to come.
 */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    // oxlint-disable-next-line no-base-to-string -- last is whatever check() threw, usually an Error
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface WorkerProcess {
  child: ChildProcess;
  identity: string;
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/** A real worker process (`src/worker/main.ts`), for killing, freezing and restarting. */
export async function spawnWorkerProcess(options: {
  taskQueue: string;
  identity: string;
  env?: NodeJS.ProcessEnv;
  address?: string;
  /** A config file of its own (default `test/helpers/worker.yaml`). */
  config?: string;
  /** A workflow bundle of its own (default the one global-setup built). */
  workflowBundle?: string;
  /** The worker's entry point (default src/worker/main.ts); it must print `teamrun worker ready` once polling. */
  script?: string;
}): Promise<WorkerProcess> {
  const script = options.script ?? path.join(root, 'src/worker/main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: {
      ...process.env,
      ...options.env,
      TEMPORAL_ADDRESS: options.address ?? temporalAddress(),
      TEAMRUN_TASK_QUEUE: options.taskQueue,
      TEAMRUN_WORKER_IDENTITY: options.identity,
      TEAMRUN_WORKFLOW_BUNDLE: options.workflowBundle ?? inject('workflowBundle'),
      TEAMRUN_CONFIG: options.config ?? path.join(root, 'test/helpers/worker.yaml'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitFor(
    `worker ${options.identity} to start`,
    () => {
      if (child.exitCode !== null) throw new Error(`worker exited: ${out}`);
      return out.includes('teamrun worker ready');
    },
    60_000,
  );
  return { child, identity: options.identity, output: () => out, exited };
}
