"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.HEARTBEAT_THROTTLE_MS = void 0;
exports.prebuiltWorkflowBundle = prebuiltWorkflowBundle;
exports.workflowsPath = workflowsPath;
exports.createWorker = createWorker;
const node_fs_1 = require("node:fs");
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const worker_1 = require("@temporalio/worker");
const client_1 = require("@temporalio/client");
const activities_1 = require("../activities");
const agent_activities_1 = require("../activities/agent-activities");
const attempt_gateway_1 = require("../activities/attempt-gateway");
const run_task_1 = require("../activities/run-task");
const secrets_1 = require("../activities/secrets");
const tools_1 = require("../activities/tools");
const activities_2 = require("../ledger/activities");
const executors_1 = require("../activities/executors");
const config_1 = require("../config/config");
const connection_1 = require("../config/connection");
const codec_1 = require("../codec");
const config_2 = require("../telemetry/config");
const stop_channel_1 = require("./stop-channel");
/**
 * A workflow bundle the package build makes (`npm run build`, beside the compiled code):
 * dist/workflow-bundle.js, or with `codec` dist/workflow-bundle-codec.js, which also holds the
 * codec's failure converter (so failures the workflow raises are encrypted too); with `tracing`,
 * `-otel` before `.js`: Temporal's workflow interceptors are in it. Null when running from source,
 * where the workflows are bundled at start.
 */
function prebuiltWorkflowBundle(options = {}) {
    if (!__filename.endsWith('.js'))
        return null;
    const name = `workflow-bundle${options.codec ? '-codec' : ''}${options.tracing ? '-otel' : ''}.js`;
    const file = node_path_1.default.join(__dirname, '..', name);
    return (0, node_fs_1.existsSync)(file) ? file : null;
}
/** The workflows entry, as source (run with tsx) or compiled. */
function workflowsPath() {
    const dir = node_path_1.default.join(__dirname, '..', 'workflows');
    const entry = ['index.ts', 'index.js'].map((file) => node_path_1.default.join(dir, file)).find((file) => (0, node_fs_1.existsSync)(file));
    if (!entry)
        throw new Error(`no workflows entry in ${dir}`);
    return entry;
}
/** A Temporal worker that runs `teamRun` workflows and their `runTask` attempts. */
async function createWorker(options = {}) {
    const config = options.config ?? (0, config_1.loadConfig)();
    const connection = options.connection ?? (await worker_1.NativeConnection.connect((0, connection_1.connectionOptions)(config)));
    const identity = options.identity ?? `${process.pid}@${node_os_1.default.hostname()}`;
    // With `codec:` set, every payload this worker writes is encrypted, and its ledger client's and gateway's too.
    const dataConverter = (0, codec_1.dataConverterFor)(config);
    // Activities reach shared ledgers (other workflows), and the gateway runs, over the worker's own connection.
    const client = new client_1.Client({ connection, namespace: config.connection.namespace, dataConverter });
    const taskQueue = options.taskQueue ?? config.connection.taskQueue;
    // The queue only this process polls: stops for its long attempts arrive there (stop-channel.ts),
    // and its runs ask there whether a request came from one of its attempts (attempt-gateway.ts).
    const queue = (0, stop_channel_1.stopQueueName)(taskQueue, identity);
    const env = options.env ?? process.env;
    // Before anything starts: a custom tool's bad name or an MCP header's missing variable stops the worker here.
    const tools = (0, tools_1.workerTools)({ config, env, tools: options.tools, redactor: (0, secrets_1.workerRedactor)(config, env) });
    const gateway = await attempt_gateway_1.AttemptGateway.start({ client, queue, secrets: (0, secrets_1.workerSecrets)(config, env) });
    try {
        const [worker, stop] = await workers(options, {
            config,
            connection,
            identity,
            client,
            dataConverter,
            taskQueue,
            queue,
            gateway,
            tools,
        });
        return (0, stop_channel_1.runAlongside)(worker, stop, gateway, tools);
    }
    catch (err) {
        await gateway.close();
        await tools.close();
        throw err;
    }
}
/** The main worker and its stop worker; the attempt gateway and the tools are given, shared by both. */
async function workers(options, setup) {
    const { config, connection, identity, client, dataConverter, taskQueue, queue, gateway } = setup;
    // Tracing off: nothing of the OpenTelemetry SDK is loaded (src/telemetry/config.ts says when it is on).
    const tracing = (0, config_2.telemetrySettings)(config.telemetry, options.env ?? process.env, 'worker');
    const traced = tracing
        ? require('./tracing').tracedWorkerOptions(tracing, identity)
        : {};
    const deps = {
        config,
        executors: (0, executors_1.executorRegistry)(config.worker.executors, options.executors),
        workerIdentity: identity,
        env: options.env,
        client,
        gateway,
        tools: setup.tools.factory,
    };
    // Stops for its long attempts arrive on its own queue, and so do the adopts of a run that
    // continued as new while they ran.
    const stop = await (0, stop_channel_1.createStopWorker)({
        connection,
        namespace: config.connection.namespace,
        queue,
        identity,
        client,
        dataConverter,
        gateway,
        adopting: run_task_1.adoptingFor,
        maxAttempts: config.worker.maxConcurrentAttempts,
    });
    const worker = await worker_1.Worker.create({
        connection,
        namespace: config.connection.namespace,
        dataConverter,
        taskQueue,
        identity,
        ...workflowCode(options.workflowBundle, Boolean(config.codec), Boolean(tracing)),
        ...traced,
        activities: {
            ...(0, activities_1.createActivities)({ ...deps, stops: stop.stops }),
            ...(0, activities_2.createLedgerActivities)({ client }),
            ...(0, agent_activities_1.createAgentActivities)({ client }),
            ...options.activities,
        },
        maxConcurrentActivityTaskExecutions: config.worker.maxConcurrentAttempts,
        // runTask paces its own heartbeats (the lease's `heartbeatEveryMs`, none before the first is
        // due). The SDK would hold each back to 80% of the heartbeat timeout after the one before; a
        // short throttle lets the lease's pace, and the one a stop sends at once, through unchanged.
        maxHeartbeatThrottleInterval: exports.HEARTBEAT_THROTTLE_MS,
        defaultHeartbeatThrottleInterval: exports.HEARTBEAT_THROTTLE_MS,
        // On shutdown, attempts get this long to finish; then they are handed back to be re-leased.
        shutdownGraceTime: config.worker.shutdownGraceMs,
        // A run cached on this worker gets its next workflow task on this worker's sticky queue; if
        // the worker does not pick it up in this long, any worker replays the run and takes it. Too
        // short and a busy live worker keeps missing it (each miss a workflow-task timeout and a full
        // replay elsewhere); too long and a crashed worker's runs wait. Figures: docs/lease-pace.md.
        stickyQueueScheduleToStartTimeout: config.worker.stickyScheduleToStartMs,
    });
    return [worker, stop.worker];
}
function workflowCode(given, codec, tracing) {
    if (given)
        return { workflowBundle: given };
    const prebuilt = prebuiltWorkflowBundle({ codec, tracing });
    return prebuilt ? { workflowBundle: { codePath: prebuilt } } : { workflowsPath: workflowsPath() };
}
/** Below the fastest pace a plan may ask for (`LEASE_PACE.minHeartbeatEveryMs`). */
exports.HEARTBEAT_THROTTLE_MS = 200;
