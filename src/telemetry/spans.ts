/**
 * teamrun's own spans, through the OpenTelemetry API only: with tracing off no provider is
 * registered, so each span here is the API's no-op and costs a function call.
 */
import { SpanKind, SpanStatusCode, context, trace, type Attributes, type Span } from '@opentelemetry/api';
import { llmRequestAttributes, llmUsageAttributes } from './openinference';

export const TRACER_NAME = 'teamrun';

/** Span attribute names of CONTRACT.md ("Tracing"). */
export const ATTR = {
  runId: 'teamrun.run_id',
  taskKey: 'teamrun.task.key',
  attempt: 'teamrun.attempt',
  fencingToken: 'teamrun.fencing_token',
  holder: 'teamrun.holder',
  leaseTtlMs: 'teamrun.lease.ttl_ms',
  executorKind: 'teamrun.executor.kind',
  worker: 'teamrun.worker',
  outcome: 'teamrun.outcome',
  reason: 'teamrun.reason',
  inputTokens: 'teamrun.usage.input_tokens',
  outputTokens: 'teamrun.usage.output_tokens',
  costUsd: 'teamrun.cost_usd',
} as const;

export function tracer() {
  return trace.getTracer(TRACER_NAME);
}

/**
 * The active span as a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), or undefined when
 * nothing is traced: what a shell task finds in `TRACEPARENT` and an http task in its header.
 */
export function traceparent(): string | undefined {
  const span = trace.getSpan(context.active());
  const sc = span?.spanContext();
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** Runs `fn` in a new active span, ending it with `fn`'s outcome (an error is recorded, then rethrown). */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message?.slice(0, 1024) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** What a model call reports once answered, for its `gen_ai.*` attributes. */
export interface ModelCallResult {
  responseModel?: string;
  inputTokens?: number;
  outputTokens?: number;
  finishReasons?: string[];
  /** What teamrun priced the call at, when it did (`llm.cost.total`). */
  costUsd?: number;
}

/**
 * One model call as a span with the OpenTelemetry GenAI semantic conventions (`gen_ai.*`) and
 * OpenInference's (`llm.*`, kind LLM: what Arize Phoenix shows, see openinference.ts): the
 * llm kind uses it, and the agent kind can for each turn. `call` returns its answer and what to
 * record of it.
 */
export function modelCallSpan<T>(
  request: { model: string; system?: string; operation?: 'chat' | 'text_completion'; maxTokens?: number },
  call: (span: Span) => Promise<{ answer: T; usage: ModelCallResult }>,
): Promise<T> {
  const operation = request.operation ?? 'chat';
  const attributes: Attributes = {
    ...llmRequestAttributes(request.model, request.system ?? 'openai', request.maxTokens),
    'gen_ai.operation.name': operation,
    'gen_ai.system': request.system ?? 'openai',
    'gen_ai.request.model': request.model,
    ...(request.maxTokens !== undefined ? { 'gen_ai.request.max_tokens': request.maxTokens } : {}),
  };
  return inSpan(
    `${operation} ${request.model}`,
    attributes,
    async (span) => {
      const { answer, usage } = await call(span);
      span.setAttributes({
        ...(usage.responseModel ? { 'gen_ai.response.model': usage.responseModel } : {}),
        ...(usage.inputTokens !== undefined ? { 'gen_ai.usage.input_tokens': usage.inputTokens } : {}),
        ...(usage.outputTokens !== undefined ? { 'gen_ai.usage.output_tokens': usage.outputTokens } : {}),
        ...(usage.finishReasons ? { 'gen_ai.response.finish_reasons': usage.finishReasons } : {}),
        ...llmUsageAttributes(usage),
      });
      return answer;
    },
    SpanKind.CLIENT,
  );
}
