// A user's own program run by a shell task: it continues the run's trace from TRACEPARENT (W3C),
// as any OpenTelemetry SDK can, and exports one span, `child-work`, to OTEL_EXPORTER_OTLP_ENDPOINT
// over OTLP/HTTP in protobuf (what Phoenix takes; @opentelemetry/exporter-trace-otlp-proto is the
// same two calls).
const { context, defaultTextMapGetter } = require('@opentelemetry/api');
const { W3CTraceContextPropagator } = require('@opentelemetry/core');
const { OTLPExporterBase } = require('@opentelemetry/otlp-exporter-base');
const {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} = require('@opentelemetry/otlp-exporter-base/node-http');
const { ProtobufTraceSerializer } = require('@opentelemetry/otlp-transformer');
const { Resource } = require('@opentelemetry/resources');
const { BasicTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');

async function main() {
  if (!process.env.TRACEPARENT) throw new Error('no TRACEPARENT in the environment');
  const provider = new BasicTracerProvider({
    resource: new Resource({ 'service.name': 'traced-child' }),
    spanProcessors: [
      new SimpleSpanProcessor(
        new OTLPExporterBase(
          createOtlpHttpExportDelegate(
            convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
            ProtobufTraceSerializer,
          ),
        ),
      ),
    ],
  });
  const parent = new W3CTraceContextPropagator().extract(
    context.active(),
    { traceparent: process.env.TRACEPARENT },
    defaultTextMapGetter,
  );
  const span = provider.getTracer('traced-child').startSpan('child-work', { attributes: { pid: process.pid } }, parent);
  span.end();
  await provider.shutdown();
  process.stdout.write(`::teamrun-output::${JSON.stringify({ traceparent: process.env.TRACEPARENT })}\n`);
}

main().catch((err) => {
  process.stderr.write(`traced-child: ${err.stack}\n`);
  process.exit(1);
});
