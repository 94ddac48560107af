"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_JAEGER_PORTS = exports.JaegerError = exports.JAEGER_VERSION = exports.JAEGER_MODULE = void 0;
exports.jaegerDir = jaegerDir;
exports.jaegerBinary = jaegerBinary;
exports.ensureJaegerBuild = ensureJaegerBuild;
exports.jaegerConfig = jaegerConfig;
exports.startJaeger = startJaeger;
/**
 * Jaeger (v2, all-in-one, in-memory) for looking at teamrun's traces on this machine: built once
 * from the Go module proxy with the Go toolchain, as the cluster's Temporal server is
 * (scripts/cluster/build.ts), cached in `.teamrun/jaeger/<version>/`; `npm run jaeger` and
 * `teamrun dev --tracing` start it.
 *
 * The module ships no Jaeger UI: `cmd/query/app/ui/actual/` is empty in it (upstream fills it from
 * the jaeger-ui repository before a release build), so the binary serves a placeholder page at
 * `/`; the query API (`/api/traces`, `/api/services`) is complete. `JAEGER_UI_ASSETS` names a
 * directory of a built jaeger-ui to serve instead (Jaeger's `ui.assets_path`).
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const errors_1 = require("../errors");
const binary_1 = require("./binary");
const go_build_1 = require("./go-build");
exports.JAEGER_MODULE = 'github.com/jaegertracing/jaeger';
exports.JAEGER_VERSION = 'v1.76.0';
class JaegerError extends errors_1.TeamrunError {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
exports.JaegerError = JaegerError;
function jaegerDir(version = exports.JAEGER_VERSION) {
    return node_path_1.default.join((0, binary_1.projectRoot)(), '.teamrun', 'jaeger', version);
}
function jaegerBinary(version = exports.JAEGER_VERSION) {
    return node_path_1.default.join(jaegerDir(version), 'bin', 'jaeger');
}
/**
 * The jaeger binary at `version`, built (`go build ./cmd/jaeger` inside the downloaded module, so
 * its go.mod applies as upstream builds it) unless it is already; into a scratch directory renamed
 * at the end, so an interrupted build leaves nothing that looks finished.
 */
function ensureJaegerBuild(log, version = exports.JAEGER_VERSION) {
    const binary = jaegerBinary(version);
    if ((0, node_fs_1.existsSync)(binary))
        return binary;
    const began = Date.now();
    const { scratch } = (0, go_build_1.goBuild)({
        what: 'Jaeger',
        module: exports.JAEGER_MODULE,
        version,
        packages: ['./cmd/jaeger'],
        dir: jaegerDir(version),
        output: (bin) => node_path_1.default.join(bin, 'jaeger'),
        fail: (code, message) => new JaegerError(code, message),
        log,
    });
    (0, node_fs_1.rmSync)(jaegerDir(version), { recursive: true, force: true });
    (0, node_fs_1.renameSync)(scratch, jaegerDir(version));
    const mb = ((0, node_fs_1.statSync)(binary).size / 1e6).toFixed(1);
    log(`built Jaeger ${version} in ${((Date.now() - began) / 1000).toFixed(0)} s: jaeger ${mb} MB`);
    return binary;
}
exports.DEFAULT_JAEGER_PORTS = { otlp: 4318, query: 16686, queryGrpc: 16685 };
/**
 * Jaeger's config: OTLP/HTTP in, memory storage, the query API and UI; only on 127.0.0.1, and
 * none of the all-in-one default's other receivers and ports (so tests can run it beside another).
 */
function jaegerConfig(ports, assetsPath) {
    return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:${ports.query}
    grpc:
      endpoint: 127.0.0.1:${ports.queryGrpc}
${assetsPath ? `    ui:\n      assets_path: ${JSON.stringify(assetsPath)}\n` : ''}  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 20000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${ports.otlp}
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}
/** Builds Jaeger if needed, starts it with `ports`, and resolves once its query API answers. */
async function startJaeger(options = {}) {
    const log = options.log ?? (() => undefined);
    const ports = options.ports ?? exports.DEFAULT_JAEGER_PORTS;
    const binary = ensureJaegerBuild(log);
    const configFile = node_path_1.default.join(jaegerDir(), `config-${ports.otlp}-${ports.query}.yaml`);
    (0, node_fs_1.writeFileSync)(configFile, jaegerConfig(ports, process.env.JAEGER_UI_ASSETS));
    const child = (0, node_child_process_1.spawn)(binary, ['--config', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr = (stderr + chunk.toString()).slice(-4096)));
    const queryUrl = `http://127.0.0.1:${ports.query}`;
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const stop = async () => {
        if (child.exitCode === null && child.signalCode === null)
            child.kill('SIGTERM');
        await exited;
    };
    const deadline = Date.now() + (options.readyWithinMs ?? 30_000);
    while (Date.now() < deadline && child.exitCode === null) {
        const ok = await fetch(`${queryUrl}/api/services`).then((res) => res.ok, () => false);
        if (ok)
            return { process: child, otlpEndpoint: `http://127.0.0.1:${ports.otlp}`, queryUrl, stop };
        await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await stop();
    throw new JaegerError('JAEGER_NOT_READY', `Jaeger did not answer on ${queryUrl}: ${stderr.trim().slice(-1000)}`);
}
