/**
 * OpenInference's span attributes (openinference-semantic-conventions, the names Arize Phoenix
 * reads), set beside the OpenTelemetry GenAI ones (`gen_ai.*`): with them Phoenix shows a model
 * call as an LLM span with its model and token counts, a tool call as a TOOL span, an agent's
 * attempt as an AGENT span and the run's structure as CHAIN spans. Other backends keep them as
 * plain attributes. Neither a prompt nor an answer nor a tool's arguments is recorded.
 */
import type { Attributes } from '@opentelemetry/api';

export const OI = {
  spanKind: 'openinference.span.kind',
  modelName: 'llm.model_name',
  provider: 'llm.provider',
  system: 'llm.system',
  invocationParameters: 'llm.invocation_parameters',
  promptTokens: 'llm.token_count.prompt',
  completionTokens: 'llm.token_count.completion',
  totalTokens: 'llm.token_count.total',
  costTotal: 'llm.cost.total',
  toolName: 'tool.name',
} as const;

export type OpenInferenceKind = 'LLM' | 'TOOL' | 'AGENT' | 'CHAIN';

/** A model call's request side: the model it asked for, and the provider's API family. */
export function llmRequestAttributes(model: string, system: string, maxTokens?: number): Attributes {
  return {
    [OI.spanKind]: 'LLM',
    [OI.modelName]: model,
    [OI.provider]: system,
    [OI.system]: system,
    ...(maxTokens !== undefined ? { [OI.invocationParameters]: JSON.stringify({ max_tokens: maxTokens }) } : {}),
  };
}

/** A model call's answer side: the model that answered, its tokens, and what teamrun priced it at. */
export function llmUsageAttributes(usage: {
  responseModel?: string;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}): Attributes {
  const { inputTokens, outputTokens } = usage;
  return {
    ...(usage.responseModel ? { [OI.modelName]: usage.responseModel } : {}),
    ...(inputTokens !== undefined ? { [OI.promptTokens]: inputTokens } : {}),
    ...(outputTokens !== undefined ? { [OI.completionTokens]: outputTokens } : {}),
    ...(inputTokens !== undefined || outputTokens !== undefined
      ? { [OI.totalTokens]: (inputTokens ?? 0) + (outputTokens ?? 0) }
      : {}),
    ...(usage.costUsd !== undefined ? { [OI.costTotal]: usage.costUsd } : {}),
  };
}

/** A tool call: its name only (its arguments may hold what a span must not). */
export function toolAttributes(name: string): Attributes {
  return { [OI.spanKind]: 'TOOL', [OI.toolName]: name };
}

/** An attempt: an agent's (the agent and agent-cli kinds) is an AGENT span, any other a CHAIN. */
export function attemptKind(executorKind: string): Attributes {
  return { [OI.spanKind]: executorKind === 'agent' || executorKind === 'agent-cli' ? 'AGENT' : 'CHAIN' };
}
