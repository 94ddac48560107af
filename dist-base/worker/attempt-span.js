"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.attemptSpans = attemptSpans;
const activity_1 = require("@temporalio/activity");
const interface_1 = require("../activities/interface");
const spans_1 = require("../telemetry/spans");
/**
 * With tracing on, each `runTask` runs inside its attempt's span (after Temporal's own interceptor,
 * which continues the run's trace from the activity's headers). Other activities pass through.
 */
function attemptSpans(workerIdentity) {
    return (ctx) => ({
        inbound: {
            execute: (input, next) => ctx.info.activityType === 'runTask'
                ? attemptSpan(
                // A compact input names neither the run nor the token: read them as runTask does.
                (0, interface_1.expandRunTaskInput)(input.args[0], { workflowId: ctx.info.workflowExecution?.workflowId ?? '', activityId: ctx.info.activityId }, { heartbeatEveryMs: 0, announceAfterMs: 0 }), { ttlMs: ctx.info.heartbeatTimeoutMs ?? 0, workerIdentity }, () => next(input))
                : next(input),
        },
    });
}
/**
 * One attempt as a span, child of the activity's, so the executor's own work (a shell task's
 * `TRACEPARENT`, an http task's `traceparent`, a model call) nests under it.
 */
function attemptSpan(input, lease, run) {
    const attributes = {
        [spans_1.ATTR.runId]: input.workflowId,
        [spans_1.ATTR.taskKey]: input.taskKey,
        [spans_1.ATTR.attempt]: input.attempt,
        [spans_1.ATTR.fencingToken]: input.fencingToken,
        [spans_1.ATTR.holder]: input.holder,
        [spans_1.ATTR.leaseTtlMs]: lease.ttlMs,
        [spans_1.ATTR.executorKind]: input.executor.kind,
        [spans_1.ATTR.worker]: lease.workerIdentity,
    };
    return (0, spans_1.inSpan)(`attempt ${input.taskKey}#${input.fencingToken}`, attributes, async (span) => {
        try {
            const result = await run();
            span.setAttribute(spans_1.ATTR.outcome, 'succeeded');
            recordUsage(span, result.usage);
            return result;
        }
        catch (err) {
            span.setAttributes(failureAttributes(err));
            recordUsage(span, failureDetails(err)?.usage);
            throw err;
        }
    });
}
function failureAttributes(err) {
    if (err instanceof activity_1.CancelledFailure)
        return { [spans_1.ATTR.outcome]: 'cancelled', [spans_1.ATTR.reason]: err.message.slice(0, 256) };
    const reason = err instanceof activity_1.ApplicationFailure ? (err.type ?? 'failed') : err?.name || 'failed';
    return { [spans_1.ATTR.outcome]: 'failed', [spans_1.ATTR.reason]: reason.slice(0, 256) };
}
function failureDetails(err) {
    if (err instanceof activity_1.ApplicationFailure || err instanceof activity_1.CancelledFailure)
        return err.details?.[0];
    return undefined;
}
function recordUsage(span, usage) {
    if (!usage)
        return;
    if (usage.inputTokens !== undefined)
        span.setAttribute(spans_1.ATTR.inputTokens, usage.inputTokens);
    if (usage.outputTokens !== undefined)
        span.setAttribute(spans_1.ATTR.outputTokens, usage.outputTokens);
    if (usage.costUsd !== undefined)
        span.setAttribute(spans_1.ATTR.costUsd, usage.costUsd);
}
