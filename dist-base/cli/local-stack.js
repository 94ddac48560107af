"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.installRuntime = installRuntime;
exports.temporalAnswers = temporalAnswers;
exports.embeddedTarget = embeddedTarget;
exports.startEmbeddedServer = startEmbeddedServer;
exports.startLocalWorker = startLocalWorker;
exports.onInterrupt = onInterrupt;
exports.startStack = startStack;
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = __importDefault(require("node:path"));
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const connection_1 = require("../config/connection");
const server_1 = require("../codec/server");
const binary_1 = require("../devserver/binary");
const server_2 = require("../devserver/server");
const create_worker_1 = require("../worker/create-worker");
const log_format_1 = require("../worker/log-format");
const context_1 = require("./context");
const web_ui_1 = require("./web-ui");
/**
 * The pieces `teamrun dev` and `teamrun demo` run in one process: an embedded dev server and a
 * worker. Each is started and stopped here, in that order and its reverse.
 */
/** Temporal's runtime logs at this level; the CLI handles Ctrl-C itself (see `onInterrupt`). */
function installRuntime(level) {
    (0, log_format_1.installTerminalLogger)(level, { shutdownSignals: [] });
}
/** True when a Temporal frontend answers for `namespace` (at `target.address`, with its TLS and key). */
async function temporalAnswers(target, namespace, timeoutMs = 1_500) {
    let connection;
    try {
        connection = await client_1.Connection.connect({ ...target, connectTimeout: timeoutMs });
        await connection.withDeadline(Date.now() + timeoutMs, () => connection.workflowService.describeNamespace({ namespace }));
        return true;
    }
    catch {
        return false;
    }
    finally {
        await connection?.close().catch(() => undefined);
    }
}
function portTaken(host, port) {
    return new Promise((resolve) => {
        const server = node_net_1.default.createServer();
        server.once('error', () => resolve(true));
        server.listen(port, host, () => server.close(() => resolve(false)));
    });
}
/**
 * Where the embedded server listens: on the port of `connection.address` when that address is
 * local (so `TEMPORAL_ADDRESS=127.0.0.1:17233` moves it), else on `devServer.port`. The Web UI
 * takes `devServer.uiPort` beside the configured port, the dev server's own frontend+1000 otherwise.
 */
function embeddedTarget(config, overrides = {}) {
    const { host, port: addressPort } = (0, web_ui_1.parseAddress)(config.connection.address);
    const ip = config.devServer.ip;
    const port = overrides.port ?? ((0, web_ui_1.isLocalHost)(host) ? addressPort : config.devServer.port);
    const uiPort = overrides.uiPort ?? (0, web_ui_1.uiPortFor)(config, port);
    return { ip, port, uiPort, address: `${ip}:${port}` };
}
/** A config file's relative paths are relative to the file, not to where the command runs. */
function resolveDbFile(config) {
    const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
    return node_path_1.default.resolve(base, config.devServer.dbFile);
}
async function startEmbeddedServer(config, target, options) {
    const moveHint = 'Choose other ports, e.g. TEMPORAL_ADDRESS=127.0.0.1:17233 (the Web UI then takes 18233), ' +
        'or connection.address and devServer.uiPort in teamrun.yaml.';
    if (await portTaken(target.ip, target.port)) {
        throw new context_1.CliError(`port ${target.port} on ${target.ip} is in use by a program that does not answer ` +
            `as a Temporal server (namespace ${config.connection.namespace}). ${moveHint}`);
    }
    if (!options.headless && (await portTaken(target.ip, target.uiPort))) {
        throw new context_1.CliError(`the Web UI port ${target.uiPort} on ${target.ip} is in use. ${moveHint}`);
    }
    const binary = (0, binary_1.findTemporalBinary)();
    const dbFile = resolveDbFile(config);
    options.log(`starting the Temporal dev server on ${target.address} (SQLite ${node_path_1.default.relative(process.cwd(), dbFile) || dbFile})`);
    try {
        return await (0, server_2.startDevServer)({
            binary,
            ip: target.ip,
            port: target.port,
            uiPort: target.uiPort,
            dbFile,
            namespace: config.connection.namespace,
            headless: options.headless,
            uiCodecEndpoint: options.uiCodecEndpoint,
            detached: true,
        });
    }
    catch (err) {
        throw new context_1.CliError(`the Temporal dev server did not start: ${err.message}`);
    }
}
/**
 * A worker in this process on the config's queue. `TEAMRUN_WORKFLOW_BUNDLE` skips bundling, as for `teamrun worker`.
 */
async function startLocalWorker(config, connect) {
    const connection = await worker_1.NativeConnection.connect(connect);
    const bundle = process.env.TEAMRUN_WORKFLOW_BUNDLE;
    let worker;
    try {
        worker = await (0, create_worker_1.createWorker)({
            config,
            connection,
            taskQueue: config.connection.taskQueue,
            workflowBundle: bundle ? { codePath: bundle } : undefined,
        });
    }
    catch (err) {
        await connection.close();
        throw err;
    }
    const running = worker.run();
    running.catch(() => undefined);
    return {
        worker,
        running,
        async stop() {
            if (worker.getState() === 'RUNNING')
                worker.shutdown();
            // A failed worker has said why through `running`; stopping it must still release the rest.
            await running.catch(() => undefined);
            await connection.close();
        },
    };
}
/**
 * Calls `graceful` on the first Ctrl-C (or SIGTERM) and `force` on a second one, so a user who
 * does not want to wait for a clean stop can have a fast one. Returns a function that unhooks.
 */
function onInterrupt(graceful, force) {
    let count = 0;
    const handler = () => {
        count += 1;
        if (count === 1)
            graceful();
        else
            force();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
    };
}
/**
 * With `codec.server` in the config, the embedded Web UI decodes payloads through a codec server
 * this process runs (its origins allowed, the token in the endpoint's path: the UI sends no header).
 */
async function startEmbeddedCodecServer(config, target, options) {
    if (!config.codec?.server || options.headless)
        return null;
    const origins = [
        `http://localhost:${target.uiPort}`,
        `http://127.0.0.1:${target.uiPort}`,
        `http://${target.ip}:${target.uiPort}`,
    ];
    try {
        return await (0, server_1.startConfiguredCodecServer)(config, { extraOrigins: origins });
    }
    catch (err) {
        throw new context_1.CliError(`the codec server for the Web UI did not start: ${err.message}`);
    }
}
/**
 * Starts the embedded server (unless `reuseRunning` finds one) and a worker. On return,
 * `config.connection.address` is the address both use.
 */
async function startStack(config, options) {
    const { host } = (0, web_ui_1.parseAddress)(config.connection.address);
    const target = embeddedTarget(config, options);
    const existing = options.reuseRunning ? config.connection.address : target.address;
    let server = null;
    let codecServer = null;
    const probe = options.reuseRunning ? (0, connection_1.connectionOptions)(config) : { address: target.address };
    if (await temporalAnswers(probe, config.connection.namespace)) {
        if (!options.reuseRunning) {
            throw new context_1.CliError(`a Temporal server already answers at ${existing} (another \`teamrun dev\`?). ` +
                'Add a worker to it with `teamrun worker`, or start this one on other ports (--port, --ui-port).');
        }
        options.log(`using the Temporal server that answers at ${existing}`);
    }
    else if (options.reuseRunning && !(0, web_ui_1.isLocalHost)(host)) {
        throw new context_1.CliError(`nothing answers as a Temporal server at ${config.connection.address} (namespace ${config.connection.namespace})`);
    }
    else {
        codecServer = await startEmbeddedCodecServer(config, target, options);
        try {
            server = await startEmbeddedServer(config, target, { ...options, uiCodecEndpoint: codecServer?.uiEndpoint });
        }
        catch (err) {
            await codecServer?.close();
            throw err;
        }
        config.connection.address = server.address;
    }
    const connect = server ? { address: server.address } : (0, connection_1.connectionOptions)(config);
    let worker;
    try {
        options.log(`starting a worker on task queue "${config.connection.taskQueue}"`);
        worker = await startLocalWorker(config, connect);
    }
    catch (err) {
        await codecServer?.close();
        await server?.stop();
        throw err;
    }
    const webUi = server
        ? options.headless
            ? null
            : `http://localhost:${target.uiPort}`
        : options.uiPort
            ? `http://localhost:${options.uiPort}`
            : (0, web_ui_1.localWebUi)(config);
    return {
        address: config.connection.address,
        connect,
        webUi,
        server,
        codecServer,
        worker,
        async stop(log) {
            log('stopping the worker');
            try {
                await worker.stop();
            }
            finally {
                await codecServer?.close();
                if (server) {
                    log('stopping the Temporal dev server');
                    await server.stop();
                }
            }
        },
    };
}
