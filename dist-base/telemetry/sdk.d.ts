import { Resource } from '@opentelemetry/resources';
import { type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetrySettings } from './config';
export interface Telemetry {
    resource: Resource;
    /** Where the worker's workflow spans (sent out of the sandbox through a sink) are exported too. */
    spanProcessor: SpanProcessor;
    /** Exports what is still buffered; the process may exit after it. */
    shutdown(): Promise<void>;
}
/**
 * Registers the process-wide tracer provider, once: a process holding a worker and a
 * client exports through one pipeline. Spans are batched (`OTEL_BSP_*` tune it) and flushed when
 * the process is about to exit.
 */
export declare function startTelemetry(settings: TelemetrySettings): Telemetry;
