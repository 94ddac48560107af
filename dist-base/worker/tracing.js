"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WORKFLOW_TRACING_MODULE = void 0;
exports.tracedWorkerOptions = tracedWorkerOptions;
const attempt_span_1 = require("./attempt-span");
/**
 * Temporal's own workflow interceptors (spans for the run, each activity it schedules, its messages
 * and continue-as-new, whose headers carry the trace on): they run inside the workflow bundle, so a
 * traced worker needs a bundle built with them (`dist/workflow-bundle-otel.js`, see scripts/build.js).
 */
exports.WORKFLOW_TRACING_MODULE = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');
/**
 * What a worker adds with tracing on: the SDK (loaded here, never when off), Temporal's activity
 * interceptors and teamrun's attempt spans, and the sink that exports the workflow's spans (made
 * in the sandbox, never during replay) through the same pipeline.
 */
function tracedWorkerOptions(settings, workerIdentity) {
    const { startTelemetry } = require('../telemetry/sdk');
    const otel = require('@temporalio/interceptors-opentelemetry');
    const telemetry = startTelemetry(settings);
    return {
        interceptors: {
            activity: [
                (ctx) => ({
                    inbound: new otel.OpenTelemetryActivityInboundInterceptor(ctx),
                    outbound: new otel.OpenTelemetryActivityOutboundInterceptor(ctx),
                }),
                (0, attempt_span_1.attemptSpans)(workerIdentity),
            ],
            workflowModules: [exports.WORKFLOW_TRACING_MODULE],
        },
        sinks: { exporter: otel.makeWorkflowExporter(telemetry.spanProcessor, telemetry.resource) },
    };
}
