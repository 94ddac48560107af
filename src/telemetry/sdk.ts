/**
 * The OpenTelemetry SDK and its OTLP exporters, loaded only once tracing is on (see `config.ts`):
 * a process with tracing off never requires this file, so none of it is loaded or spent.
 */
import { metrics, trace } from '@opentelemetry/api';
import { AsyncHooksContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TelemetrySettings } from './config';

export interface Telemetry {
  settings: TelemetrySettings;
  resource: Resource;
  /** Where the worker's workflow spans (sent out of the sandbox through a sink) are exported too. */
  spanProcessor: SpanProcessor;
  /** Exports what is still buffered; the process may exit after it. */
  shutdown(): Promise<void>;
}

let running: Telemetry | null = null;

/**
 * Registers the process-wide tracer (and meter) providers, once: a process holding a worker and a
 * client exports through one pipeline. Spans are batched (`OTEL_BSP_*` tune it) and flushed when
 * the process is about to exit.
 */
export function startTelemetry(settings: TelemetrySettings): Telemetry {
  if (running) return running;
  const resource = new Resource({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: packageVersion(),
  });
  const spanProcessor = new BatchSpanProcessor(
    new OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers }),
  );
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({
    contextManager: new AsyncHooksContextManager().enable(),
    propagator: new W3CTraceContextPropagator(),
  });
  const meterProvider = settings.metricsUrl
    ? new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter({ url: settings.metricsUrl, headers: settings.headers }),
          }),
        ],
      })
    : null;
  if (meterProvider) metrics.setGlobalMeterProvider(meterProvider);
  let closing: Promise<void> | null = null;
  const shutdown = () =>
    (closing ??= Promise.all([provider.shutdown(), meterProvider?.shutdown()]).then(() => {
      trace.disable();
      metrics.disable();
      running = null;
    }));
  // `beforeExit` fires once the event loop is empty, where an async flush still runs: a CLI
  // command's spans leave before it exits.
  process.once('beforeExit', () => void shutdown());
  running = { settings, resource, spanProcessor, shutdown };
  return running;
}

/** Exports what the running telemetry (if any) still holds. */
export async function shutdownTelemetry(): Promise<void> {
  await running?.shutdown();
}

/** The package's own manifest, two folders up from src/telemetry and dist/telemetry alike. */
function packageVersion(): string {
  return (require('../../package.json') as { version: string }).version;
}
