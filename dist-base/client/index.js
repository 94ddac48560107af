"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __exportStar = (this && this.__exportStar) || function(m, exports) {
    for (var p in m) if (p !== "default" && !Object.prototype.hasOwnProperty.call(exports, p)) __createBinding(exports, m, p);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.teamRunResult = exports.cancelledRunResult = exports.DEFAULT_TASK_QUEUE = exports.messages = void 0;
exports.connectClient = connectClient;
exports.startTeamRun = startTeamRun;
const client_1 = require("@temporalio/client");
const config_1 = require("../config/config");
const connection_1 = require("../config/connection");
const codec_1 = require("../codec");
const config_2 = require("../telemetry/config");
const messages_1 = require("../workflows/messages");
const search_attributes_1 = require("../workflows/search-attributes");
const handle_1 = require("./handle");
exports.messages = __importStar(require("../workflows/messages"));
__exportStar(require("./handle"), exports);
/** The default task queue of CONTRACT.md, used when neither the options nor a config name one. */
exports.DEFAULT_TASK_QUEUE = 'teamrun';
/**
 * A client for the config's cluster and namespace (by default the config `loadConfig()` finds:
 * teamrun.yaml, the temporal.toml profile, TEMPORAL_* variables). An unreachable server fails
 * after the connect timeout (2 s), not after the SDK's retries. With `codec:` set in the config,
 * the client encrypts and decrypts payloads with it; with tracing on (docs/observability.md), its
 * calls are spans.
 */
async function connectClient(config = (0, config_1.loadConfig)()) {
    const dataConverter = (0, codec_1.dataConverterFor)(config);
    const connection = await client_1.Connection.connect({ connectTimeout: connection_1.CONNECT_TIMEOUT_MS, ...(0, connection_1.connectionOptions)(config) });
    // With tracing on (OTEL_* or `telemetry:`), each call is a span and a run started joins the caller's trace.
    const tracing = (0, config_2.telemetrySettings)(config.telemetry, process.env, 'client');
    const interceptors = tracing
        ? require('./tracing').tracedClientInterceptors(tracing)
        : undefined;
    return new client_1.Client({ connection, namespace: config.connection.namespace, dataConverter, interceptors });
}
/** Starts a team run and returns its handle: `result()`, `status()`, `interrupt()`, `abort()`, `adjudicate()`, ... */
async function startTeamRun(client, plan, options = {}) {
    const workflowId = options.workflowId ?? `${plan.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    const handle = await client.workflow.start(messages_1.WORKFLOW_TYPE, {
        taskQueue: options.taskQueue ?? exports.DEFAULT_TASK_QUEUE,
        workflowId,
        args: [plan],
        typedSearchAttributes: [{ key: search_attributes_1.TeamName, value: plan.name }],
        staticSummary: `team run ${plan.name}: ${plan.tasks.length} tasks, ${plan.teammates ?? 2} teammates`,
    });
    return (0, handle_1.withControls)(handle);
}
var result_1 = require("./result");
Object.defineProperty(exports, "cancelledRunResult", { enumerable: true, get: function () { return result_1.cancelledRunResult; } });
Object.defineProperty(exports, "teamRunResult", { enumerable: true, get: function () { return result_1.teamRunResult; } });
