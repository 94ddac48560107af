import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { createActivities } from '../activities';
import { createLedgerActivities } from '../activities/ledger';
import { executorRegistry, type Executor } from '../activities/executors';
import { loadConfig, type TeamrunConfig } from '../config/config';
import { connectionOptions } from '../config/connection';
import { dataConverterFor } from '../codec';

export interface CreateWorkerOptions {
  config?: TeamrunConfig;
  /** Custom executor kinds, by `executor.kind`; enabled on this worker in addition to the config's. */
  executors?: Record<string, Executor>;
  connection?: NativeConnection;
  taskQueue?: string;
  identity?: string;
  /**
   * A pre-built workflow bundle (see `bundleWorkflowCode`); by default the one shipped in the
   * package, or, running from source, the workflows are bundled at start.
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  env?: NodeJS.ProcessEnv;
}

/**
 * A workflow bundle the package build makes (`npm run build`, beside the compiled code):
 * dist/workflow-bundle.js, or with `codec` dist/workflow-bundle-codec.js, which also holds the
 * codec's failure converter (so failures the workflow raises are encrypted too). Null when running
 * from source, where the workflows are bundled at start.
 */
export function prebuiltWorkflowBundle(options: { codec?: boolean } = {}): string | null {
  if (!__filename.endsWith('.js')) return null;
  const file = path.join(__dirname, '..', options.codec ? 'workflow-bundle-codec.js' : 'workflow-bundle.js');
  return existsSync(file) ? file : null;
}

/** The workflows entry, as source (run with tsx) or compiled. */
export function workflowsPath(): string {
  const dir = path.join(__dirname, '..', 'workflows');
  const entry = ['index.ts', 'index.js'].map((file) => path.join(dir, file)).find((file) => existsSync(file));
  if (!entry) throw new Error(`no workflows entry in ${dir}`);
  return entry;
}

/** A Temporal worker that runs `teamRun` workflows and their `runTask` attempts. */
export async function createWorker(options: CreateWorkerOptions = {}): Promise<Worker> {
  const config = options.config ?? loadConfig();
  const connection =
    options.connection ?? (await NativeConnection.connect(connectionOptions(config)));
  const identity = options.identity ?? `${process.pid}@${os.hostname()}`;
  // With `codec:` set, every payload this worker writes is encrypted, and its ledger client's too.
  const dataConverter = dataConverterFor(config);
  // Activities reach shared ledgers (other workflows) over the worker's own connection.
  const client = new Client({ connection, namespace: config.connection.namespace, dataConverter });
  return Worker.create({
    connection,
    namespace: config.connection.namespace,
    dataConverter,
    taskQueue: options.taskQueue ?? config.connection.taskQueue,
    identity,
    ...workflowCode(options.workflowBundle, Boolean(config.codec)),
    activities: {
      ...createActivities({
        config,
        executors: executorRegistry(config.worker.executors, options.executors),
        workerIdentity: identity,
        env: options.env,
        client,
      }),
      ...createLedgerActivities({ client }),
    },
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentAttempts,
    // Cancellation reaches an attempt in the response to a heartbeat: sending one a second
    // (one small RPC per running attempt per second) bounds interrupt latency near a second.
    maxHeartbeatThrottleInterval: '1s',
    defaultHeartbeatThrottleInterval: '1s',
    // On shutdown, attempts get this long to finish; then they are handed back to be re-leased.
    shutdownGraceTime: config.worker.shutdownGraceMs,
    // A run cached on a worker that died gets its next workflow task (e.g. the lost lease) on
    // that worker's sticky queue; after this long it goes to any worker. The default 10 s would
    // add 10 s to every lease recovery after a crash; a busy live worker only pays a replay.
    stickyQueueScheduleToStartTimeout: '1s',
  });
}

function workflowCode(given: CreateWorkerOptions['workflowBundle'], codec: boolean): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (given) return { workflowBundle: given };
  const prebuilt = prebuiltWorkflowBundle({ codec });
  return prebuilt ? { workflowBundle: { codePath: prebuilt } } : { workflowsPath: workflowsPath() };
}
