"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ATTR = exports.TRACER_NAME = void 0;
exports.tracer = tracer;
exports.traceparent = traceparent;
exports.inSpan = inSpan;
exports.modelCallSpan = modelCallSpan;
/**
 * teamrun's own spans, through the OpenTelemetry API only: with tracing off no provider is
 * registered, so each span here is the API's no-op and costs a function call.
 */
const api_1 = require("@opentelemetry/api");
exports.TRACER_NAME = 'teamrun';
/** Span attribute names of CONTRACT.md ("Tracing"). */
exports.ATTR = {
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
};
function tracer() {
    return api_1.trace.getTracer(exports.TRACER_NAME);
}
/**
 * The active span as a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), or undefined when
 * nothing is traced: what a shell task finds in `TRACEPARENT` and an http task in its header.
 */
function traceparent() {
    const span = api_1.trace.getSpan(api_1.context.active());
    const sc = span?.spanContext();
    if (!sc || !api_1.trace.isSpanContextValid(sc))
        return undefined;
    return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}
/** Runs `fn` in a new active span, ending it with `fn`'s outcome (an error is recorded, then rethrown). */
async function inSpan(name, attributes, fn, kind = api_1.SpanKind.INTERNAL) {
    return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
        try {
            return await fn(span);
        }
        catch (err) {
            span.recordException(err);
            span.setStatus({ code: api_1.SpanStatusCode.ERROR, message: err.message?.slice(0, 1024) });
            throw err;
        }
        finally {
            span.end();
        }
    });
}
/**
 * One model call as a span with the OpenTelemetry GenAI semantic conventions (`gen_ai.*`): the
 * llm kind uses it, and the agent kind can for each turn. `call` returns its answer and what to
 * record of it.
 */
function modelCallSpan(request, call) {
    const operation = request.operation ?? 'chat';
    const attributes = {
        'gen_ai.operation.name': operation,
        'gen_ai.system': request.system ?? 'openai',
        'gen_ai.request.model': request.model,
        ...(request.maxTokens !== undefined ? { 'gen_ai.request.max_tokens': request.maxTokens } : {}),
    };
    return inSpan(`${operation} ${request.model}`, attributes, async (span) => {
        const { answer, usage } = await call(span);
        span.setAttributes({
            ...(usage.responseModel ? { 'gen_ai.response.model': usage.responseModel } : {}),
            ...(usage.inputTokens !== undefined ? { 'gen_ai.usage.input_tokens': usage.inputTokens } : {}),
            ...(usage.outputTokens !== undefined ? { 'gen_ai.usage.output_tokens': usage.outputTokens } : {}),
            ...(usage.finishReasons ? { 'gen_ai.response.finish_reasons': usage.finishReasons } : {}),
        });
        return answer;
    }, api_1.SpanKind.CLIENT);
}
