/**
 * teamrun's own spans, through the OpenTelemetry API only: with tracing off no provider is
 * registered, so each span here is the API's no-op and costs a function call.
 */
import { SpanKind, type Attributes, type Span } from '@opentelemetry/api';
export declare const TRACER_NAME = "teamrun";
/** Span attribute names of CONTRACT.md ("Tracing"). */
export declare const ATTR: {
    readonly runId: 'teamrun.run_id';
    readonly taskKey: 'teamrun.task.key';
    readonly attempt: 'teamrun.attempt';
    readonly fencingToken: 'teamrun.fencing_token';
    readonly holder: 'teamrun.holder';
    readonly leaseTtlMs: 'teamrun.lease.ttl_ms';
    readonly executorKind: 'teamrun.executor.kind';
    readonly worker: 'teamrun.worker';
    readonly outcome: 'teamrun.outcome';
    readonly reason: 'teamrun.reason';
    readonly inputTokens: 'teamrun.usage.input_tokens';
    readonly outputTokens: 'teamrun.usage.output_tokens';
    readonly costUsd: 'teamrun.cost_usd';
};
export declare function tracer(): import("@opentelemetry/api").Tracer;
/**
 * The active span as a W3C `traceparent` (`00-<trace id>-<span id>-<flags>`), or undefined when
 * nothing is traced: what a shell task finds in `TRACEPARENT` and an http task in its header.
 */
export declare function traceparent(): string | undefined;
/** Runs `fn` in a new active span, ending it with `fn`'s outcome (an error is recorded, then rethrown). */
export declare function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>, kind?: SpanKind): Promise<T>;
/** What a model call reports once answered, for its `gen_ai.*` attributes. */
export interface ModelCallResult {
    responseModel?: string;
    inputTokens?: number;
    outputTokens?: number;
    finishReasons?: string[];
}
/**
 * One model call as a span with the OpenTelemetry GenAI semantic conventions (`gen_ai.*`): the
 * llm kind uses it, and the agent kind can for each turn. `call` returns its answer and what to
 * record of it.
 */
export declare function modelCallSpan<T>(request: {
    model: string;
    system?: string;
    operation?: 'chat' | 'text_completion';
    maxTokens?: number;
}, call: (span: Span) => Promise<{
    answer: T;
    usage: ModelCallResult;
}>): Promise<T>;
