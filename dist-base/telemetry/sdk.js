"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startTelemetry = startTelemetry;
/**
 * The OpenTelemetry SDK and its OTLP span exporter, loaded only once tracing is on (see
 * `config.ts`): a process with tracing off never requires this file, so none of it is loaded or
 * spent. Metrics take the Temporal runtime's path instead (src/worker/main.ts).
 */
const api_1 = require("@opentelemetry/api");
const context_async_hooks_1 = require("@opentelemetry/context-async-hooks");
const core_1 = require("@opentelemetry/core");
const exporter_trace_otlp_http_1 = require("@opentelemetry/exporter-trace-otlp-http");
const resources_1 = require("@opentelemetry/resources");
const sdk_trace_base_1 = require("@opentelemetry/sdk-trace-base");
const semantic_conventions_1 = require("@opentelemetry/semantic-conventions");
let running = null;
/**
 * Registers the process-wide tracer provider, once: a process holding a worker and a
 * client exports through one pipeline. Spans are batched (`OTEL_BSP_*` tune it) and flushed when
 * the process is about to exit.
 */
function startTelemetry(settings) {
    if (running)
        return running;
    const resource = new resources_1.Resource({
        [semantic_conventions_1.ATTR_SERVICE_NAME]: settings.serviceName,
        [semantic_conventions_1.ATTR_SERVICE_VERSION]: packageVersion(),
    });
    const spanProcessor = new sdk_trace_base_1.BatchSpanProcessor(new exporter_trace_otlp_http_1.OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers }));
    const provider = new sdk_trace_base_1.BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
    provider.register({
        contextManager: new context_async_hooks_1.AsyncHooksContextManager().enable(),
        propagator: new core_1.W3CTraceContextPropagator(),
    });
    let closing = null;
    const shutdown = () => (closing ??= provider.shutdown().then(() => {
        api_1.trace.disable();
        running = null;
    }));
    // `beforeExit` fires once the event loop is empty, where an async flush still runs: a CLI
    // command's spans leave before it exits.
    process.once('beforeExit', () => void shutdown());
    running = { resource, spanProcessor, shutdown };
    return running;
}
/** The package's own manifest, two folders up from src/telemetry and dist/telemetry alike. */
function packageVersion() {
    return require('../../package.json').version;
}
