import { ExecutorError, type Executor } from './types';

interface LlmSpec {
  kind: 'llm';
  model: string;
  prompt?: string;
  messages?: Array<{ role: string; content: string }>;
  maxTokens?: number;
  timeoutMs?: number;
}

interface ChatCompletion {
  choices?: Array<{ message?: { content?: string } }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
  };
}

/** `{{outputs.<key>}}` in a prompt is replaced by that dependency's output. */
export function renderPrompt(template: string, outputs: Record<string, unknown>): string {
  return template.replace(/\{\{\s*outputs\.([A-Za-z0-9._:-]+)\s*\}\}/g, (_, key: string) => {
    const value = outputs[key];
    return typeof value === 'string' ? value : JSON.stringify(value ?? null);
  });
}

/**
 * OpenAI-compatible chat completions. The base URL and the key come from the worker's config
 * and environment, never from the plan, so the key never reaches workflow history.
 */
export const llmExecutor: Executor = async (raw, ctx) => {
  const spec = raw as unknown as LlmSpec;
  const { baseUrl, apiKeyEnv } = ctx.config.worker.llm;
  const apiKey = ctx.env[apiKeyEnv];
  const messages = (spec.messages ?? [{ role: 'user', content: spec.prompt ?? '' }]).map((m) => ({
    ...m,
    content: renderPrompt(m.content, ctx.dependencyOutputs),
  }));
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const signal = spec.timeoutMs ? AbortSignal.any([ctx.signal, AbortSignal.timeout(spec.timeoutMs)]) : ctx.signal;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Idempotency-Key': `${ctx.workflowId}/${ctx.taskKey}/${ctx.fencingToken}`,
        ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({ model: spec.model, messages, ...(spec.maxTokens ? { max_tokens: spec.maxTokens } : {}) }),
      signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    throw new ExecutorError(`llm ${url}: ${(err as Error).message}`, { type: 'TeamLlmUnreachable' });
  }
  const text = await response.text();
  let body: ChatCompletion = {};
  try {
    body = JSON.parse(text) as ChatCompletion;
  } catch {
    // Reported below with the status.
  }
  const usage = body.usage
    ? {
        model: spec.model,
        inputTokens: (body.usage.prompt_tokens ?? 0) - (body.usage.prompt_tokens_details?.cached_tokens ?? 0),
        outputTokens: body.usage.completion_tokens ?? 0,
        cacheTokens: body.usage.prompt_tokens_details?.cached_tokens ?? 0,
      }
    : undefined;
  if (!response.ok) {
    const retryable = response.status === 429 || response.status === 408 || response.status >= 500;
    throw new ExecutorError(`llm ${url}: HTTP ${response.status}: ${text.slice(0, 500)}`, {
      nonRetryable: !retryable,
      type: `TeamLlm${response.status}`,
      usage,
    });
  }
  return { output: { content: body.choices?.[0]?.message?.content ?? '' }, usage };
};
