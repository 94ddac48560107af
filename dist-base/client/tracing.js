"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tracedClientInterceptors = tracedClientInterceptors;
/**
 * A traced client's interceptors: Temporal's, which open a span for each start, signal, update and
 * query and carry its context in the workflow's headers, so the run joins the caller's trace
 * (`teamrun start` opens it). Loaded only with tracing on.
 */
function tracedClientInterceptors(settings) {
    const { startTelemetry } = require('../telemetry/sdk');
    const { OpenTelemetryWorkflowClientInterceptor } = require('@temporalio/interceptors-opentelemetry');
    startTelemetry(settings);
    return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
