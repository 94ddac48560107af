import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { createActivities, type ActivityDeps } from '../activities';
import { createAgentActivities } from '../activities/agent-activities';
import { AttemptGateway } from '../activities/gateway/gateway';
import { removeDeadGateways } from '../activities/gateway/leftovers';
import { adoptingFor } from '../activities/run-task';
import { workerRedactor, workerSecrets } from '../activities/secrets';
import { workerTools, type CustomTool, type WorkerTools } from '../activities/tools';
import { createLedgerActivities } from '../ledger/activities';
import type { ProveLedgerCall } from '../ledger/doors';
import { ledgerRenewals } from '../ledger/renewal';
import { createChildBudgetActivities } from '../activities/parent-carve';
import { executorRegistry, type Executor } from '../activities/executors';
import { sandboxAtStart } from '../activities/executors/sandbox';
import { containmentAtStart } from '../activities/executors/process-tree';
import { resolveWorkerCommands } from '../config/commands';
import { loadConfig, type TeamrunConfig } from '../config/config';
import { connectionOptions } from '../config/connection';
import { dataConverterFor } from '../codec';
import { telemetrySettings } from '../telemetry/config';
import { checkedHooks, type WorkerHooks } from '../activities/host-hooks';
import { createControlWorker, createStopWorker, runAlongside, stopQueueName } from './stop-channel';
import { withScheduledOnly } from './scheduled-only';
import type { WorkerModels } from '../activities/executors/model/provider';

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
  /** More activities on the same worker (the benchmark's bare baseline registers its trivial one here). */
  activities?: WorkerOptions['activities'];
  /** Custom tools for agents (`defineTool`), by the name a task lists them with. */
  tools?: Record<string, CustomTool>;
  /**
   * The host's own code around each attempt this worker runs (docs/executors.md, "Host hooks"): `onLeaseChanged`
   * and `beforeTask` (which may refuse) before the executor, `afterTask` with the settlement about to be reported.
   */
  hooks?: WorkerHooks;
  /**
   * Models for agent and llm tasks, by the name a task gives (`model:`): any AI SDK language model (provider
   * interface v3, as `anthropic('claude-sonnet-4-5')` makes one). Before `worker.models` of the config.
   */
  models?: WorkerModels;
}

/**
 * A workflow bundle the package build makes (`npm run build`, beside the compiled code):
 * dist/workflow-bundle.js, or with `codec` dist/workflow-bundle-codec.js, which also holds the
 * codec's failure converter (so failures the workflow raises are encrypted too); with `tracing`,
 * `-otel` before `.js`: Temporal's workflow interceptors are in it. Null when running from source,
 * where the workflows are bundled at start.
 */
export function prebuiltWorkflowBundle(options: { codec?: boolean; tracing?: boolean } = {}): string | null {
  if (!__filename.endsWith('.js')) return null;
  const name = `workflow-bundle${options.codec ? '-codec' : ''}${options.tracing ? '-otel' : ''}.js`;
  const file = path.join(__dirname, '..', name);
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
  const env = options.env ?? process.env;
  // Before anything starts: a hook that is not a function, or a bad bound, stops the worker here.
  const hooks = checkedHooks(options.hooks);
  // Before anything starts: a CLI or MCP server command that is not there stops the worker here, naming its key.
  const config = resolveWorkerCommands(options.config ?? loadConfig(), env);
  // Once, as it starts: whether its attempts are out of each other's reach (worker.sandbox); said when they are not.
  const sandbox = sandboxAtStart(config.worker.sandbox);
  const level = sandbox.failing ? 'error' : sandbox.isolated || config.worker.sandbox.mode === 'off' ? 'info' : 'warn';
  Runtime.instance().logger[level](`teamrun worker: ${sandbox.line}`);
  // Once, as it starts: what the attempts of workers that died on this host left running is ended (their cgroups).
  const deadWorkersSwept = containmentAtStart(config.worker.shell.cgroup);
  if (deadWorkersSwept > 0) {
    Runtime.instance().logger.warn(
      `teamrun worker: ended what ${deadWorkersSwept} worker(s) that died on this host left running (their cgroups)`,
    );
  }
  const connection = options.connection ?? (await NativeConnection.connect(connectionOptions(config)));
  const identity = options.identity ?? `${process.pid}@${os.hostname()}`;
  // With `codec:` set, every payload this worker writes is encrypted, and its ledger client's and gateway's too.
  const dataConverter = dataConverterFor(config);
  // Activities reach shared ledgers (other workflows), and the gateway runs, over the worker's own connection.
  const client = new Client({ connection, namespace: config.connection.namespace, dataConverter });
  const taskQueue = options.taskQueue ?? config.connection.taskQueue;
  // The queue only this process polls: stops for its long attempts arrive there (stop-channel.ts),
  // and its runs ask there whether a request came from one of its attempts (activities/gateway/gateway.ts).
  const queue = stopQueueName(taskQueue, identity);
  // Before anything starts: a custom tool's bad name or an MCP header's missing variable stops the worker here.
  const tools = workerTools({ config, env, tools: options.tools, redactor: workerRedactor(config, env) });
  const gateway = await AttemptGateway.start({
    client,
    queue,
    secrets: workerSecrets(config, env),
    runs: { taskQueue, maxPerAttempt: config.worker.maxRunsPerAttempt },
  });
  // Once, as it starts: what workers that died on this host left on disk, their attempts' inputs among it, is removed.
  const deadGateways = await removeDeadGateways(gateway.dir);
  if (deadGateways > 0) {
    Runtime.instance().logger.warn(
      `teamrun worker: removed what ${deadGateways} worker(s) that died on this host left on disk ` +
        `(their gateway directories and their attempts' inputs)`,
    );
  }
  // Aborted when shutdown begins (SIGTERM, SIGINT, `shutdown()`): attempts between two steps start no new one.
  const stopping = new AbortController();
  try {
    const [worker, sides] = await workers(options, {
      config,
      connection,
      identity,
      client,
      dataConverter,
      taskQueue,
      queue,
      gateway,
      tools,
      stopping: stopping.signal,
      ...(hooks ? { hooks } : {}),
    });
    const running = runAlongside(worker, sides, gateway, tools);
    const shutdown = running.shutdown.bind(running);
    running.shutdown = () => {
      stopping.abort();
      shutdown();
    };
    return running;
  } catch (err) {
    await gateway.close();
    await tools.close();
    throw err;
  }
}

/** The main worker, its stop worker and its control worker; the attempt gateway and the tools are given, shared. */
async function workers(
  options: CreateWorkerOptions,
  setup: {
    config: TeamrunConfig;
    connection: NativeConnection;
    identity: string;
    client: Client;
    dataConverter: ReturnType<typeof dataConverterFor>;
    taskQueue: string;
    queue: string;
    gateway: AttemptGateway;
    tools: WorkerTools;
    stopping: AbortSignal;
    hooks?: WorkerHooks;
  },
): Promise<[Worker, Worker[]]> {
  const { config, connection, identity, client, dataConverter, taskQueue, queue, gateway, hooks } = setup;
  // Tracing off: nothing of the OpenTelemetry SDK is loaded (src/telemetry/config.ts says when it is on).
  const tracing = telemetrySettings(config.telemetry, options.env ?? process.env, 'worker');
  const withoutTaskText = config.codec !== undefined;
  const code = workflowCode(options.workflowBundle, Boolean(config.codec), Boolean(tracing));
  const traced = tracing
    ? (require('./tracing') as typeof import('./tracing')).tracedWorkerOptions(
        { ...tracing, withoutTaskText },
        identity,
        'workflowsPath' in code,
      )
    : {};
  const proveLedger: ProveLedgerCall = (ledger, call, digest) => gateway.proveLedger(ledger, call, digest);
  const deps: ActivityDeps = {
    config,
    executors: executorRegistry(config.worker.executors, options.executors),
    workerIdentity: identity,
    env: options.env,
    client,
    ledgerRenewals: ledgerRenewals(client, proveLedger, (message, fields) =>
      Runtime.instance().logger.warn(message, fields),
    ),
    gateway,
    tools: setup.tools.factory,
    stopping: setup.stopping,
    ...(hooks ? { hooks } : {}),
    ...(options.models ? { models: options.models } : {}),
  };
  // Stops for its long attempts arrive on its own queue, and so do the adopts of a run that
  // continued as new while they ran.
  const stop = await createStopWorker({
    connection,
    namespace: config.connection.namespace,
    queue,
    identity,
    client,
    dataConverter,
    gateway,
    adopting: adoptingFor,
    maxAttempts: config.worker.maxConcurrentAttempts,
  });
  // What a run's attempts wait for (stop-channel.ts createControlWorker): on a queue with slots of its own.
  const control = {
    ...createLedgerActivities({ client, prove: proveLedger, workflowQueue: taskQueue }),
    ...createAgentActivities({ client, gateway }),
    ...createChildBudgetActivities({ client }),
  };
  const workerOptions: WorkerOptions & IsolateTimeout = {
    connection,
    namespace: config.connection.namespace,
    dataConverter,
    taskQueue,
    identity,
    ...code,
    ...traced,
    interceptors: withScheduledOnly(traced.interceptors),
    activities: {
      ...createActivities({ ...deps, stops: stop.stops }),
      // Also here: runs recorded before the control queue schedule them on the run's queue.
      ...control,
      ...options.activities,
    },
    maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentAttempts,
    // runTask paces its own heartbeats (the lease's `heartbeatEveryMs`, none before the first is
    // due). The SDK would hold each back to 80% of the heartbeat timeout after the one before; a
    // short throttle lets the lease's pace, and the one a stop sends at once, through unchanged.
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MS,
    defaultHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MS,
    // On shutdown, attempts get this long to finish; then they are handed back to be re-leased.
    shutdownGraceTime: config.worker.shutdownGraceMs,
    // A run cached on this worker gets its next workflow task on this worker's sticky queue; if
    // the worker does not pick it up in this long, any worker replays the run and takes it. Too
    // short and a busy live worker keeps missing it (each miss a workflow-task timeout and a full
    // replay elsewhere); too long and a crashed worker's runs wait. Figures: docs/lease-pace.md.
    stickyQueueScheduleToStartTimeout: config.worker.stickyScheduleToStartMs,
    isolateExecutionTimeout: ISOLATE_EXECUTION_TIMEOUT_MS,
  };
  const controlWorker = await createControlWorker({
    connection,
    namespace: config.connection.namespace,
    taskQueue,
    identity,
    dataConverter,
    activities: control,
    maxAttempts: config.worker.maxConcurrentAttempts,
    interceptors: withScheduledOnly({ activity: traced.interceptors?.activity ?? [] }),
  });
  return [await Worker.create(workerOptions), [stop.worker, controlWorker]];
}

function workflowCode(
  given: CreateWorkerOptions['workflowBundle'],
  codec: boolean,
  tracing: boolean,
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (given) return { workflowBundle: given };
  const prebuilt = prebuiltWorkflowBundle({ codec, tracing });
  return prebuilt ? { workflowBundle: { codePath: prebuilt } } : { workflowsPath: workflowsPath() };
}

/**
 * How long one workflow activation may run before V8 stops it. The SDK's default is 5 s, wall time; a machine
 * running far past its cores stretched a teamRun activation of milliseconds past it (5.2 s, 100 attempts starting
 * at once, load average 24 on two cores), and a stop there aborts the whole worker process ("async hook stack has
 * become corrupted": Node cannot stop a vm script mid-microtask cleanly). The timeout exists to catch a workflow
 * that loops forever; this worker runs only teamrun's own workflows.
 */
export const ISOLATE_EXECUTION_TIMEOUT_MS = 60_000;

/** The SDK reads this option (worker-options.js spreads what it is given over its defaults) but does not type it. */
interface IsolateTimeout {
  isolateExecutionTimeout: number;
}

/** Below the fastest pace a plan may ask for (`LEASE_PACE.minHeartbeatEveryMs`). */
export const HEARTBEAT_THROTTLE_MS = 200;
