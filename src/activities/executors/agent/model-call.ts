/**
 * One model call of an agent (one turn) through the AI SDK's provider interface, streamed (../model/stream.ts),
 * retried inside the attempt as the same step when the provider is busy or down (../model-retry.ts): one journal
 * entry and one charge however many tries it took. With tracing on, a `gen_ai.*` span under the attempt's.
 */
import type { AssistantMessage } from '../../../agent/types';
import type { AgentSpec } from '../../../plan/agent';
import { modelRetryPolicy } from '../../../plan/model-retry';
import type { Usage } from '../../../plan/schema';
import { modelCallSpan } from '../../../telemetry/spans';
import { priceUsage, tokensCeilingUsd } from '../../pricing';
import type { ToolSpec } from '../../tools/types';
import { withModelRetry, type RetryWait } from '../model-retry';
import type { ResolvedModel } from '../model/provider';
import { toPrompt, toTools } from '../model/prompt';
import { streamModel } from '../model/stream';
import type { ExecutorContext } from '../types';

export interface TurnCall {
  /** The spec as the loop runs it: its model known (its own, or its role's). */
  spec: AgentSpec & { model: string };
  ctx: ExecutorContext;
  resolved: ResolvedModel;
  turn: number;
  maxTokens: number;
  messages: unknown[];
  offered: Iterable<ToolSpec>;
  redact: (text: string) => string;
}

export interface TurnAnswer {
  message: AssistantMessage;
  usage?: Usage;
}

export function callModel(call: TurnCall): Promise<TurnAnswer> {
  const { spec, ctx, resolved, turn, maxTokens, redact } = call;
  const prompt = toPrompt(call.messages);
  const tools = toTools(call.offered);
  const usd = tokensCeilingUsd(ctx.config.prices, spec.model, maxTokens);
  const retry = {
    policy: modelRetryPolicy(spec.modelRetry),
    signal: ctx.signal,
    ...(ctx.stopping ? { stopping: ctx.stopping } : {}),
    provider: resolved.where,
    onWait: (wait: RetryWait) => {
      ctx.progress({ turn, tool: null, modelRetry: wait });
      // A wait the provider asked for is the step going on, not a stall.
      ctx.moved?.(`model call ${turn} retried (try ${wait.tries}, HTTP ${wait.status ?? 'none'})`);
    },
  };
  const once = () =>
    streamModel({
      model: resolved.model,
      name: spec.model,
      where: resolved.where,
      ...(resolved.origin ? { origin: resolved.origin } : {}),
      prompt,
      tools,
      maxTokens,
      headers: { 'Idempotency-Key': `${ctx.workflowId}/${ctx.taskKey}/agent/${turn}` },
      signal: ctx.signal,
      ...(spec.turnTimeoutMs ? { timeoutMs: spec.turnTimeoutMs } : {}),
      maxChars: ctx.config.worker.http.maxBodyBytes,
      redact,
      turn,
      ...(ctx.live ? { live: ctx.live } : {}),
      moved: (step: string) => ctx.moved?.(step),
      // Cut before its usage came, the call is charged what was reserved for it (where the run counts spend).
      ...(ctx.budget
        ? {
            unknownCharge: { model: spec.model, inputTokens: maxTokens, ...(usd > 0 ? { costUsd: usd } : {}) },
            markUnknown: () => ctx.budget?.markUnknown?.(),
          }
        : {}),
      label: 'agent model call',
    });
  return modelCallSpan({ model: spec.model, maxTokens }, async () => {
    const answer = await withModelRetry(once, retry);
    const message: AssistantMessage = {
      role: 'assistant',
      content: answer.text ? answer.text : null,
      ...(answer.toolCalls.length ? { tool_calls: answer.toolCalls } : {}),
    };
    return {
      answer: { message, ...(answer.usage ? { usage: answer.usage } : {}) },
      usage: {
        inputTokens: answer.usage?.inputTokens,
        outputTokens: answer.usage?.outputTokens,
        // The span's llm.cost.total, by this worker's price table (the run's budget prices it again, as it does).
        costUsd: priceUsage(answer.usage, ctx.config.prices)?.costUsd,
      },
    };
  });
}
