/**
 * Not a workflow: the workflow interceptors of a traced worker (its bundle's `workflowInterceptorModules`). Temporal's
 * OpenTelemetry interceptors, with two changes that spare the workflow thread most of what tracing cost it:
 *
 * - `scheduleActivity` opens its `StartActivity` span and hands the activity its headers without the async layers
 *   Temporal's wraps it in;
 * - an ended span goes to the worker's exporter sink at once, where Temporal's `SimpleSpanProcessor` sends it through
 *   three promises (its export, then and catch).
 *
 * Why: the SDK records a stack for every promise made in the workflow sandbox (for its stack-trace query), source
 * mapped frame by frame. Temporal's `scheduleActivity` made about ten promises per activity and each ended span three
 * more, so a traced run paid for some sixteen stacks per attempt. Names, parents, statuses and headers are Temporal's.
 *
 * Runs recorded before this took a few more microtask turns between an activity's result and the code awaiting it,
 * which can order that code's commands differently from other work of the same activation: they replay with
 * Temporal's own `scheduleActivity` (`patched`). Exporting spans issues no command.
 */
// First: what OpenTelemetry's SDK needs of a browser-like global (`performance`), as Temporal's module does.
import '@temporalio/interceptors-opentelemetry/lib/workflow/runtime';
import { SpanStatusCode, TraceFlags, context, trace, type Span, type Tracer } from '@opentelemetry/api';
import { BasicTracerProvider, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { ContextManager } from '@temporalio/interceptors-opentelemetry/lib/workflow/context-manager';
import { SpanExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/span-exporter';
import { headersWithContext } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import {
  patched,
  type ActivityInput,
  type DisposeInput,
  type Next,
  type WorkflowInterceptors,
  type WorkflowInternalsInterceptor,
} from '@temporalio/workflow';

/** Each ended span to the exporter sink as it ends, without a promise: the sink's calls leave with the activation. */
class ExportOnEnd implements SpanProcessor {
  private readonly exporter = new SpanExporter();
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    if (span.spanContext().traceFlags & TraceFlags.SAMPLED) this.exporter.export([span], () => {});
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The workflow's tracer provider, registered when this module is evaluated (once per workflow: the SDK evaluates a
 * bundle's modules per workflow), before Temporal's interceptors register theirs, so `trace.getTracer` in workflow
 * code (teamrun's task spans) uses it too.
 */
const contextManager = new ContextManager();
const provider = new BasicTracerProvider({ spanProcessors: [new ExportOnEnd()] });
provider.register({ contextManager });
const tracer: Tracer = provider.getTracer('@temporalio/interceptor-workflow');

/** Runs recorded before activities' spans were opened without async layers replay with Temporal's interceptor. */
const SYNC_ACTIVITY_SPANS = 'teamrun-sync-activity-spans';

/**
 * Temporal's classes, on this module's tracer. Their constructors still build Temporal's own provider once per
 * workflow; its registration finds this one registered and is refused (OpenTelemetry's API keeps the first), so
 * nothing ends up on it.
 */
class RunSpans extends OpenTelemetryInboundInterceptor {
  protected override readonly tracer = tracer;
}

class ActivitySpans extends OpenTelemetryOutboundInterceptor {
  protected override readonly tracer = tracer;

  override scheduleActivity(input: ActivityInput, next: Next<OpenTelemetryOutboundInterceptor, 'scheduleActivity'>) {
    if (!patched(SYNC_ACTIVITY_SPANS)) return super.scheduleActivity(input, next);
    const span = this.tracer.startSpan(`StartActivity:${input.activityType}`);
    let scheduled: Promise<unknown>;
    try {
      const headers = context.with(trace.setSpan(context.active(), span), () => headersWithContext(input.headers));
      scheduled = next({ ...input, headers });
    } catch (err) {
      failed(span, err);
      throw err;
    }
    scheduled.then(
      () => {
        span.setStatus({ code: SpanStatusCode.OK });
        span.end();
      },
      (err: unknown) => failed(span, err),
    );
    return scheduled;
  }
}

/** As Temporal's interceptor marks a failed span: an error, unless the failure says it is benign. */
function failed(span: Span, err: unknown): void {
  const benign = err instanceof ApplicationFailure && err.category === ApplicationFailureCategory.BENIGN;
  const message = err instanceof Error ? err.message : String(err);
  span.setStatus({ code: benign ? SpanStatusCode.UNSET : SpanStatusCode.ERROR, message });
  span.recordException(err instanceof Error ? err : message);
  span.end();
}

/** As Temporal's: the context manager lets go of its store when the workflow is disposed of. */
class Disposal implements WorkflowInternalsInterceptor {
  dispose(input: DisposeInput, next: Next<WorkflowInternalsInterceptor, 'dispose'>): void {
    contextManager.disable();
    next(input);
  }
}

export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new RunSpans()],
  outbound: [new ActivitySpans()],
  internals: [new Disposal()],
});
