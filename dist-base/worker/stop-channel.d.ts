import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import type { AttemptGateway } from '../activities/attempt-gateway';
import { AttemptStops, type Adopting } from '../activities/attempt-stops';
/**
 * Temporal's worker-specific task queue pattern: every worker process also polls a task queue
 * of its own, on which a run sends `stopAttempts` for the attempts this process runs. A stop
 * then takes one activity dispatch, not a heartbeat period; the heartbeat response stays the
 * fallback (a stop sent to a worker that died times out unanswered, and the lease TTL decides).
 */
export declare function stopQueueName(taskQueue: string, identity: string): string;
/** Whether a task queue's name is one `stopQueueName` made (`<queue>/stop/<identity>/<uuid>`). */
export declare function isStopQueue(name: string): boolean;
export declare function createStopWorker(options: {
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
}): Promise<{
    stops: AttemptStops;
    worker: Worker;
}>;
/**
 * Runs `stop` alongside `main`: `main.run()` also runs the stop worker, and shuts it down once
 * the main worker has stopped (attempts finishing in the shutdown grace time may still be
 * stopped meanwhile), then what its attempts shared (the attempt gateway, the MCP connections);
 * `main.shutdown()` stops both.
 */
export declare function runAlongside(main: Worker, stop: Worker, ...shared: ReadonlyArray<{
    close(): Promise<void>;
}>): Worker;
