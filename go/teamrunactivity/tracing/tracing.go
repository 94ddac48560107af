// Package tracing continues a team run's trace in a Go worker (OpenTelemetry, through the Go SDK's
// contrib interceptor, go.temporal.io/sdk/contrib/opentelemetry).
//
// teamrun's workflow puts the run's trace context in the activity's Temporal headers (the
// `_tracer-data` header every SDK's OpenTelemetry interceptor uses). With Interceptor on the
// worker's client, each activity runs in a span that is a child of its schedule in the run's
// trace (under the task's span), and teamrunactivity.Wrap names the task on it.
//
//	ic, shutdown, err := tracing.Interceptor(ctx, "")
//	c, err := client.Dial(client.Options{HostPort: address, Interceptors: ic})
//	defer shutdown(context.Background())
package tracing

import (
	"context"
	"os"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// DefaultServiceName is the service the worker's spans carry unless OTEL_SERVICE_NAME or the caller names one.
const DefaultServiceName = "teamrun-go-worker"

// Enabled is whether tracing is on, as in teamrun's own worker: OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) names a collector and neither OTEL_SDK_DISABLED=true nor
// OTEL_TRACES_EXPORTER=none turns it off.
func Enabled() bool {
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	if strings.EqualFold(strings.TrimSpace(os.Getenv("OTEL_TRACES_EXPORTER")), "none") {
		return false
	}
	return strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) != "" ||
		strings.TrimSpace(os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) != ""
}

// Interceptor returns the interceptors for client.Options.Interceptors (the worker made from the
// client uses them too) and a shutdown that flushes the spans still buffered; with tracing off,
// none and a shutdown that does nothing. Spans go over OTLP/HTTP (protobuf), batched; the exporter
// reads the endpoint and headers from the standard OTEL_* variables itself. serviceName "" means
// OTEL_SERVICE_NAME, else DefaultServiceName.
func Interceptor(ctx context.Context, serviceName string) ([]interceptor.ClientInterceptor, func(context.Context) error, error) {
	noop := func(context.Context) error { return nil }
	if !Enabled() {
		return nil, noop, nil
	}
	exporter, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, noop, err
	}
	if serviceName == "" {
		serviceName = os.Getenv("OTEL_SERVICE_NAME")
	}
	if serviceName == "" {
		serviceName = DefaultServiceName
	}
	provider := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exporter),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", serviceName))),
	)
	otel.SetTracerProvider(provider)
	ic, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{Tracer: provider.Tracer("teamrunactivity")})
	if err != nil {
		return nil, noop, err
	}
	return []interceptor.ClientInterceptor{ic}, provider.Shutdown, nil
}
