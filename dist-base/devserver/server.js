"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.freePort = freePort;
exports.startDevServer = startDevServer;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_net_1 = __importDefault(require("node:net"));
const node_path_1 = __importDefault(require("node:path"));
const client_1 = require("@temporalio/client");
const search_attributes_1 = require("../workflows/search-attributes");
const binary_1 = require("./binary");
const private_1 = require("./private");
/** A free TCP port on loopback, for tests and for `--port 0`. */
function freePort() {
    return new Promise((resolve, reject) => {
        const server = node_net_1.default.createServer();
        server.unref();
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const { port } = server.address();
            server.close(() => resolve(port));
        });
    });
}
/**
 * Starts `temporal server start-dev` on a SQLite file with teamrun's search attributes
 * registered, and waits until its frontend answers.
 */
async function startDevServer(options = {}) {
    const binary = options.binary ?? (0, binary_1.findTemporalBinary)();
    const ip = options.ip ?? '127.0.0.1';
    const port = options.port ?? 7233;
    const uiPort = options.uiPort ?? 8233;
    const namespace = options.namespace ?? 'default';
    const dbFile = node_path_1.default.resolve(options.dbFile ?? '.teamrun/dev.db');
    (0, private_1.ensurePrivateDir)(node_path_1.default.dirname(dbFile));
    // A database created before this was 0644: tighten it (the server creates a missing one under umask 077).
    (0, private_1.restrictDatabase)(dbFile);
    const logFile = options.logFile ?? `${dbFile}.log`;
    (0, private_1.ensurePrivateFile)(logFile);
    const args = [
        'server',
        'start-dev',
        '--ip',
        ip,
        '--port',
        String(port),
        '--db-filename',
        dbFile,
        ...[namespace, ...(options.extraNamespaces ?? [])].flatMap((ns) => ['--namespace', ns]),
        '--log-level',
        'warn',
        ...(options.searchAttributes === false
            ? []
            : Object.entries(search_attributes_1.SEARCH_ATTRIBUTE_TYPES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type}`])),
        ...(options.headless ? ['--headless'] : ['--ui-port', String(uiPort), '--ui-ip', ip]),
        ...(options.uiCodecEndpoint && !options.headless ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
        ...(options.extraArgs ?? []),
    ];
    const log = (0, node_fs_1.openSync)(logFile, 'a');
    const child = (0, private_1.withPrivateUmask)(() => (0, node_child_process_1.spawn)(binary, args, { stdio: ['ignore', log, log], detached: options.detached ?? false }));
    // Set by the 'exit' listener; the cast keeps TypeScript from narrowing it to null for good below.
    let exited = null;
    child.on('exit', (code, signal) => {
        exited = `exit ${code ?? signal}`;
    });
    const address = `${ip}:${port}`;
    const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
    for (;;) {
        if (exited)
            throw new Error(`temporal server start-dev stopped at start (${exited}); see ${logFile}`);
        try {
            const connection = await client_1.Connection.connect({ address, connectTimeout: 1_000 });
            await connection.workflowService.describeNamespace({ namespace });
            await connection.close();
            break;
        }
        catch (err) {
            if (Date.now() > deadline) {
                child.kill('SIGKILL');
                throw new Error(`temporal dev server at ${address} did not answer in time: ${err.message}; see ${logFile}`);
            }
            await new Promise((r) => setTimeout(r, 250));
        }
    }
    return {
        address,
        uiUrl: options.headless ? null : `http://${ip === '0.0.0.0' ? 'localhost' : ip}:${uiPort}`,
        namespace,
        dbFile,
        process: child,
        stop: () => stopProcess(child),
    };
}
async function stopProcess(child, graceMs = 10_000) {
    if (child.exitCode !== null || child.signalCode !== null)
        return;
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
}
