import type { ClientInterceptors } from '@temporalio/client';
import type { TelemetrySettings } from '../telemetry/config';

/**
 * A traced client's interceptors: Temporal's, which open a span for each start, signal, update and
 * query and carry its context in the workflow's headers, so the run joins the caller's trace
 * (`teamrun start` opens it). Loaded only with tracing on.
 */
export function tracedClientInterceptors(settings: TelemetrySettings): ClientInterceptors {
  const { startTelemetry } = require('../telemetry/sdk') as typeof import('../telemetry/sdk');
  type Otel = typeof import('@temporalio/interceptors-opentelemetry');
  const { OpenTelemetryWorkflowClientInterceptor } = require('@temporalio/interceptors-opentelemetry') as Otel;
  startTelemetry(settings);
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
