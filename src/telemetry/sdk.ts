/**
 * The OpenTelemetry SDK and its OTLP span exporter, loaded only once tracing is on (see
 * `config.ts`): a process with tracing off never requires this file, so none of it is loaded or
 * spent. Metrics take the Temporal runtime's path instead (src/worker/main.ts).
 */
import { trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TelemetrySettings } from './config';
import { WithoutTaskText } from './without-task-text';
import { onFlushTelemetry } from './flush';
import { otlpSpanExporter } from './otlp-exporter';

export interface Telemetry {
  resource: Resource;
  /** Where the worker's workflow spans (sent out of the sandbox through a sink) are exported too. */
  spanProcessor: SpanProcessor;
  /** Exports what is still buffered; the process may exit after it. */
  shutdown(): Promise<void>;
}

let running: Telemetry | null = null;

/**
 * Registers the process-wide tracer provider, once: a process holding a worker and a
 * client exports through one pipeline. Spans are batched (`OTEL_BSP_*` tune it) and flushed when
 * the process is about to exit.
 */
export function startTelemetry(settings: TelemetrySettings): Telemetry {
  if (running) return running;
  const resource = new Resource({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: packageVersion(),
  });
  const exporting = new BatchSpanProcessor(otlpSpanExporter(settings));
  // With the codec on, no task text leaves as plaintext: the workflow's spans pass here too.
  const spanProcessor = settings.withoutTaskText ? new WithoutTaskText(exporting) : exporting;
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({
    contextManager: new AsyncLocalStorageContextManager().enable(),
    propagator: new W3CTraceContextPropagator(),
  });
  let closing: Promise<void> | null = null;
  const shutdown = () =>
    (closing ??= provider.shutdown().then(() => {
      trace.disable();
      running = null;
    }));
  // `beforeExit` fires once the event loop is empty, where an async flush still runs: a CLI
  // command's spans leave before it exits.
  process.once('beforeExit', () => void shutdown());
  // A command that fails leaves through process.exit, where beforeExit never fires: it flushes first (flush.ts).
  onFlushTelemetry(shutdown);
  running = { resource, spanProcessor, shutdown };
  return running;
}

/** The package's own manifest, two folders up from src/telemetry and dist/telemetry alike. */
function packageVersion(): string {
  return (require('../../package.json') as { version: string }).version;
}
