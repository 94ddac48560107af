"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stopQueueName = stopQueueName;
exports.isStopQueue = isStopQueue;
exports.createStopWorker = createStopWorker;
exports.runAlongside = runAlongside;
const node_crypto_1 = require("node:crypto");
const worker_1 = require("@temporalio/worker");
const interface_1 = require("../activities/interface");
const attempt_stops_1 = require("../activities/attempt-stops");
const lease_pace_1 = require("../plan/lease-pace");
/**
 * Temporal's worker-specific task queue pattern: every worker process also polls a task queue
 * of its own, on which a run sends `stopAttempts` for the attempts this process runs. A stop
 * then takes one activity dispatch, not a heartbeat period; the heartbeat response stays the
 * fallback (a stop sent to a worker that died times out unanswered, and the lease TTL decides).
 */
function stopQueueName(taskQueue, identity) {
    const name = `${taskQueue}/stop/${identity.slice(0, 100)}/${(0, node_crypto_1.randomUUID)()}`;
    return name.slice(-lease_pace_1.MAX_STOP_QUEUE_CHARS);
}
/** Whether a task queue's name is one `stopQueueName` made (`<queue>/stop/<identity>/<uuid>`). */
function isStopQueue(name) {
    return /\/stop\/.*\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(name);
}
async function createStopWorker(options) {
    const stops = new attempt_stops_1.AttemptStops(options.queue, (workflowId, payload) => options.client.workflow.getHandle(workflowId).signal(interface_1.ATTEMPT_RUNNING_SIGNAL, payload));
    const worker = await worker_1.Worker.create({
        connection: options.connection,
        namespace: options.namespace,
        taskQueue: stops.queue,
        identity: options.identity,
        ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
        activities: (0, attempt_stops_1.createStopActivities)(stops, {
            ...(options.gateway ? { confirm: (request) => options.gateway.confirm(request) } : {}),
            ...(options.adopting ? { adopting: options.adopting(stops) } : {}),
        }),
        // A stop, a confirmation or a hand-over is a map lookup: a few at once is plenty. An adopt lasts as
        // long as its attempt, and every attempt this process runs may be adopted at once: one slot each besides.
        maxConcurrentActivityTaskExecutions: 8 + (options.maxAttempts ?? 0),
        shutdownGraceTime: 1_000,
    });
    worker_1.Runtime.instance().logger.debug('stop queue: polled for stop activities only, no workflows on purpose (the terminal log omits its lines)', { taskQueue: stops.queue });
    return { stops, worker };
}
/**
 * Runs `stop` alongside `main`: `main.run()` also runs the stop worker, and shuts it down once
 * the main worker has stopped (attempts finishing in the shutdown grace time may still be
 * stopped meanwhile), then what its attempts shared (the attempt gateway, the MCP connections);
 * `main.shutdown()` stops both.
 */
function runAlongside(main, stop, ...shared) {
    const run = main.run.bind(main);
    const shutdown = main.shutdown.bind(main);
    main.run = async () => {
        const stopping = stop.run();
        try {
            return await run();
        }
        finally {
            if (stop.getState() === 'RUNNING')
                stop.shutdown();
            await stopping.catch(() => undefined);
            for (const part of shared)
                await part.close();
        }
    };
    main.shutdown = () => {
        shutdown();
    };
    return main;
}
