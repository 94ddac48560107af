import type { ClientInterceptors } from '@temporalio/client';
import type { TelemetrySettings } from '../telemetry/config';
/**
 * A traced client's interceptors: Temporal's, which open a span for each start, signal, update and
 * query and carry its context in the workflow's headers, so the run joins the caller's trace
 * (`teamrun start` opens it). Loaded only with tracing on.
 */
export declare function tracedClientInterceptors(settings: TelemetrySettings): ClientInterceptors;
