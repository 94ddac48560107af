"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerDev = registerDev;
exports.demoPlanPath = demoPlanPath;
const node_path_1 = __importDefault(require("node:path"));
const binary_1 = require("../../devserver/binary");
const context_1 = require("../context");
const options_1 = require("../options");
const log = (line) => process.stderr.write(`teamrun dev: ${line}\n`);
function registerDev(program) {
    program
        .command('dev')
        .description('run a local Temporal dev server (SQLite, search attributes ' +
        'registered, Web UI) and a worker in this process, until Ctrl-C')
        .option('--port <port>', 'frontend port (default: the port of a local connection.address, else devServer.port)', options_1.intOption)
        .option('--ui-port <port>', 'Web UI port (default: devServer.uiPort, or the frontend port + 1000)', options_1.intOption)
        .option('--headless', 'no Web UI')
        .option('--tracing', 'also run Jaeger (built with Go on first use) and send the traces there (127.0.0.1:16686)')
        .option('--log-level <level>', 'log level of the worker: TRACE, DEBUG, INFO, WARN, ERROR', options_1.logLevelOption, 'WARN')
        .action(async (options, command) => {
        const config = (0, context_1.configFrom)(command);
        // The worker's native runtime loads only for the commands that run one.
        const { installRuntime, onInterrupt, startStack } = require('../local-stack');
        installRuntime(options.logLevel);
        const jaeger = options.tracing
            ? await require('../../devserver/jaeger').startJaeger({ log })
            : null;
        // The worker below (and any CLI started from this shell with the same variable) traces to it.
        if (jaeger)
            process.env.OTEL_EXPORTER_OTLP_ENDPOINT = jaeger.otlpEndpoint;
        const stack = await startStack(config, { ...options, reuseRunning: false, log }).catch(async (err) => {
            await jaeger?.stop();
            throw err;
        });
        const { namespace, taskQueue } = config.connection;
        process.stdout.write([
            `Temporal dev server: ${stack.address} (namespace ${namespace}, SQLite ${stack.server?.dbFile})`,
            `Worker:              task queue "${taskQueue}", executors ${config.worker.executors.join(', ')}`,
            ...(stack.webUi ? [`Web UI:              ${stack.webUi}/namespaces/${namespace}/workflows`] : []),
            ...(stack.codecServer
                ? [`Codec server:        ${stack.codecServer.url} (the Web UI decodes payloads through it)`]
                : []),
            ...(jaeger
                ? [
                    `Jaeger:              ${jaeger.queryUrl} (query API /api/traces; OTLP/HTTP ${jaeger.otlpEndpoint})`,
                    `Start a traced run:  OTEL_EXPORTER_OTLP_ENDPOINT=${jaeger.otlpEndpoint} ` +
                        `teamrun start ${demoPlanPath(process.cwd())} --wait`,
                ]
                : [`Start a run:         teamrun start ${demoPlanPath(process.cwd())} --wait`]),
            'Press Ctrl-C to stop.',
            '',
        ].join('\n'));
        const interrupted = new Promise((resolve) => {
            onInterrupt(resolve, () => {
                log('stopping now');
                stack.server?.process.kill('SIGKILL');
                jaeger?.process.kill('SIGKILL');
                process.exit(130);
            });
        });
        const failed = await Promise.race([
            interrupted.then(() => null),
            stack.worker.running.then(() => null, (err) => err),
        ]);
        await stack.stop(log);
        await jaeger?.stop();
        log('stopped');
        if (failed)
            throw new context_1.CliError(`the worker stopped: ${failed.message}`);
    });
}
/**
 * The demo plan the package ships, as a path from `cwd`: `examples/demo.yaml` in a clone,
 * `node_modules/teamrun/examples/demo.yaml` in a project that installed the package, absolute elsewhere.
 */
function demoPlanPath(cwd) {
    const shipped = node_path_1.default.join((0, binary_1.projectRoot)(), 'examples', 'demo.yaml');
    const relative = node_path_1.default.relative(cwd, shipped);
    return relative && !relative.startsWith('..') && !node_path_1.default.isAbsolute(relative) ? relative : shipped;
}
