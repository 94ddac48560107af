"""Continue a team run's trace in a Python worker (OpenTelemetry; optional: ``teamrun-activity[tracing]``).

teamrun's workflow puts the run's trace context in the activity's Temporal headers (the same
``_tracer-data`` header Temporal's TypeScript and Python OpenTelemetry interceptors use). With
:func:`tracing_interceptors` on the worker's client, each activity runs in a span that is a child
of the attempt's schedule in the run's trace, and the spans the activity opens itself join it too.
"""

from __future__ import annotations

import os
from typing import Any, List, Optional

__all__ = ["tracing_interceptors"]


def tracing_interceptors(service_name: Optional[str] = None) -> List[Any]:
    """The interceptors for ``Client.connect(..., interceptors=...)``: empty unless tracing is on.

    On when ``OTEL_EXPORTER_OTLP_ENDPOINT`` (or ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``) is set and
    ``OTEL_SDK_DISABLED`` is not ``true``, as in teamrun's own worker; spans go over OTLP/HTTP,
    batched. A process that set up its own tracer provider keeps it.
    """
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return []
    if not (os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or os.environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")):
        return []
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from temporalio.contrib.opentelemetry import TracingInterceptor

    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        name = service_name or os.environ.get("OTEL_SERVICE_NAME") or "teamrun-python-worker"
        provider = TracerProvider(resource=Resource.create({SERVICE_NAME: name}))
        # The exporter reads the endpoint and headers from the standard OTEL_* variables itself.
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
        trace.set_tracer_provider(provider)
    return [TracingInterceptor()]
