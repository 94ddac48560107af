/**
 * The OTLP/HTTP span exporter in the encoding the collector takes: `http/protobuf` (the
 * OpenTelemetry default, and the only one Arize Phoenix's /v1/traces accepts) or `http/json`
 * (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` / `OTEL_EXPORTER_OTLP_PROTOCOL`, see config.ts). Loaded only
 * with tracing on, from sdk.ts.
 */
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TelemetrySettings } from './config';

export function otlpSpanExporter(settings: TelemetrySettings): SpanExporter {
  const proto = settings.protocol === 'http/protobuf';
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: settings.tracesUrl, headers: settings.headers }, 'TRACES', 'v1/traces', {
      'User-Agent': 'teamrun',
      'Content-Type': proto ? 'application/x-protobuf' : 'application/json',
    }),
    proto ? ProtobufTraceSerializer : JsonTraceSerializer,
  );
  return new OTLPExporterBase<ReadableSpan[]>(delegate);
}
