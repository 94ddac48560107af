import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Runtime, Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { ATTEMPT_RUNNING_SIGNAL } from '../activities/interface';
import type { AttemptGateway } from '../activities/gateway/gateway';
import { AttemptStops, createStopActivities, type Adopting } from '../activities/attempt-stops';
import { MAX_STOP_QUEUE_CHARS, controlQueueName } from '../plan/lease-pace';
import { withScheduledOnly } from './scheduled-only';

/**
 * Temporal's worker-specific task queue pattern: every worker process also polls a task queue
 * of its own, on which a run sends `stopAttempts` for the attempts this process runs. A stop
 * then takes one activity dispatch, not a heartbeat period; the heartbeat response stays the
 * fallback (a stop sent to a worker that died times out unanswered, and the lease TTL decides).
 */
export function stopQueueName(taskQueue: string, identity: string): string {
  const name = `${taskQueue}/stop/${identity.slice(0, 100)}/${randomUUID()}`;
  return name.slice(-MAX_STOP_QUEUE_CHARS);
}

/** Whether a task queue's name is one `stopQueueName` made (`<queue>/stop/<identity>/<uuid>`). */
export function isStopQueue(name: string): boolean {
  return /\/stop\/.*\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(name);
}

export async function createStopWorker(options: {
  connection: NativeConnection;
  namespace: string;
  /** This process's own queue (stopQueueName). */
  queue: string;
  identity: string;
  /** Sends the announcements to the runs. */
  client: Client;
  /** The main worker's (a codec encrypts the stops' payloads too). */
  dataConverter?: WorkerOptions['dataConverter'];
  /** Answers the runs' questions about requests it sent for its attempts. */
  gateway?: AttemptGateway;
  /** How this process attends an attempt a continued run adopts; none: adopts fail as lost leases. */
  adopting?: (stops: AttemptStops) => Adopting;
  /** The most attempts this process runs at once (`worker.maxConcurrentAttempts`): each may be adopted. */
  maxAttempts?: number;
}): Promise<{ stops: AttemptStops; worker: Worker }> {
  const stops = new AttemptStops(options.queue, (workflowId, payload) =>
    options.client.workflow.getHandle(workflowId).signal(ATTEMPT_RUNNING_SIGNAL, payload),
  );
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: stops.queue,
    identity: options.identity,
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    interceptors: withScheduledOnly(undefined),
    activities: createStopActivities(stops, {
      ...(options.gateway ? { confirm: (request) => options.gateway!.confirm(request) } : {}),
      ...(options.adopting ? { adopting: options.adopting(stops) } : {}),
    }),
    // A stop, a confirmation or a hand-over is a map lookup: a few at once is plenty. An adopt lasts as
    // long as its attempt, and every attempt this process runs may be adopted at once: one slot each besides.
    maxConcurrentActivityTaskExecutions: 8 + (options.maxAttempts ?? 0),
    shutdownGraceTime: 1_000,
  });
  Runtime.instance().logger.debug(
    'stop queue: polled for stop activities only, no workflows on purpose (the terminal log omits its lines)',
    { taskQueue: stops.queue },
  );
  return { stops, worker };
}

/**
 * Runs `sides` (the stop worker, the control worker) alongside `main`: `main.run()` also runs them, and shuts them
 * down once the main worker has stopped (attempts finishing in the shutdown grace time may still be stopped, and
 * still settle with their ledger, meanwhile), then closes what its attempts shared (the attempt gateway, the MCP
 * connections); `main.shutdown()` stops them all.
 */
export function runAlongside(
  main: Worker,
  sides: ReadonlyArray<Worker>,
  ...shared: ReadonlyArray<{ close(): Promise<void> }>
): Worker {
  const run = main.run.bind(main);
  const shutdown = main.shutdown.bind(main);
  main.run = async () => {
    const running = sides.map((side) => side.run());
    try {
      return await run();
    } finally {
      for (const side of sides) if (side.getState() === 'RUNNING') side.shutdown();
      await Promise.all(running.map((side) => side.catch(() => undefined)));
      for (const part of shared) await part.close();
    }
  };
  main.shutdown = () => {
    shutdown();
  };
  return main;
}

/** Control activities a process runs at once beside its attempts: per attempt slot, and a few besides. */
const CONTROL_SLOTS_PER_ATTEMPT = 2;
const CONTROL_SLOTS_BESIDES = 16;

/**
 * The worker of the run's control queue (plan/lease-pace.ts `controlQueueName`): the ledger's slots, extensions and
 * settlements, a child's asks of its parent, steers. Slots of its own, so that what running attempts wait for never
 * waits for one of them to finish. Activities only: the runs' workflow tasks stay on the main queue.
 */
export function createControlWorker(options: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  identity: string;
  dataConverter?: WorkerOptions['dataConverter'];
  activities: WorkerOptions['activities'];
  maxAttempts: number;
  interceptors?: WorkerOptions['interceptors'];
}): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: controlQueueName(options.taskQueue),
    identity: options.identity,
    ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    interceptors: withScheduledOnly(options.interceptors),
    activities: options.activities,
    maxConcurrentActivityTaskExecutions: CONTROL_SLOTS_PER_ATTEMPT * options.maxAttempts + CONTROL_SLOTS_BESIDES,
    // A settlement in flight at shutdown gets this long; one cut off is retried by the next worker.
    shutdownGraceTime: 5_000,
  });
}
