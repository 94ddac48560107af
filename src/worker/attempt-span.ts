import { ApplicationFailure, CancelledFailure } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Span } from '@opentelemetry/api';
import {
  expandRunTaskInput,
  type RunTaskInput,
  type RunTaskResult,
  type RunTaskWireInput,
} from '../activities/interface';
import type { Usage } from '../plan/schema';
import { attemptKind } from '../telemetry/openinference';
import { ATTR, inSpan } from '../telemetry/spans';

/**
 * With tracing on, each `runTask` runs inside its attempt's span (after Temporal's own interceptor,
 * which continues the run's trace from the activity's headers). Other activities pass through.
 */
export function attemptSpans(workerIdentity: string): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      execute: (input, next) =>
        ctx.info.activityType === 'runTask'
          ? attemptSpan(
              // A compact input names neither the run nor the token: read them as runTask does.
              expandRunTaskInput(
                input.args[0] as RunTaskWireInput,
                { workflowId: ctx.info.workflowExecution?.workflowId ?? '', activityId: ctx.info.activityId },
                { heartbeatEveryMs: 0, announceAfterMs: 0 },
              ),
              { ttlMs: ctx.info.heartbeatTimeoutMs ?? 0, workerIdentity },
              () => next(input) as Promise<RunTaskResult>,
            )
          : next(input),
    },
  });
}

/**
 * One attempt as a span, child of the activity's, so the executor's own work (a shell task's
 * `TRACEPARENT`, an http task's `traceparent`, a model call) nests under it.
 */
function attemptSpan(
  input: RunTaskInput,
  lease: { ttlMs: number; workerIdentity: string },
  run: () => Promise<RunTaskResult>,
): Promise<RunTaskResult> {
  const attributes = {
    [ATTR.runId]: input.workflowId,
    [ATTR.taskKey]: input.taskKey,
    [ATTR.attempt]: input.attempt,
    [ATTR.fencingToken]: input.fencingToken,
    [ATTR.holder]: input.holder,
    [ATTR.leaseTtlMs]: lease.ttlMs,
    [ATTR.executorKind]: input.executor.kind,
    [ATTR.worker]: lease.workerIdentity,
    ...attemptKind(input.executor.kind),
  };
  return inSpan(`attempt ${input.taskKey}#${input.fencingToken}`, attributes, async (span) => {
    try {
      const result = await run();
      span.setAttribute(ATTR.outcome, 'succeeded');
      recordUsage(span, result.usage);
      return result;
    } catch (err) {
      span.setAttributes(failureAttributes(err));
      recordUsage(span, (failureDetails(err) as { usage?: Usage } | undefined)?.usage);
      throw err;
    }
  });
}

function failureAttributes(err: unknown): Record<string, string> {
  if (err instanceof CancelledFailure) return { [ATTR.outcome]: 'cancelled', [ATTR.reason]: err.message.slice(0, 256) };
  const reason = err instanceof ApplicationFailure ? (err.type ?? 'failed') : (err as Error)?.name || 'failed';
  return { [ATTR.outcome]: 'failed', [ATTR.reason]: reason.slice(0, 256) };
}

function failureDetails(err: unknown): unknown {
  if (err instanceof ApplicationFailure || err instanceof CancelledFailure) return err.details?.[0];
  return undefined;
}

function recordUsage(span: Span, usage: Usage | undefined): void {
  if (!usage) return;
  if (usage.inputTokens !== undefined) span.setAttribute(ATTR.inputTokens, usage.inputTokens);
  if (usage.outputTokens !== undefined) span.setAttribute(ATTR.outputTokens, usage.outputTokens);
  if (usage.costUsd !== undefined) span.setAttribute(ATTR.costUsd, usage.costUsd);
}
