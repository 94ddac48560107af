/**
 * One model call of an agent: an OpenAI-compatible chat completion with `tools` (function
 * calling). A provider's transient error (5xx, 429, 408, a reset) throws a TransientModelError,
 * which the loop retries inside the attempt (../model-retry.ts); a permanent HTTP error throws a
 * non-retryable ExecutorError; a first call refused, a timeout or an answer that is not a chat
 * completion an ExecutorError (the task's `retry` decides); aborting `signal` aborts the request.
 */
import type { Usage } from '../../../plan/schema';
import type { AssistantMessage, ToolCall } from '../../../agent/types';
import { readBounded } from '../llm';
import { TransientModelError, markAnswered, transportFailure, httpFailure } from '../model-retry';
import { ExecutorError } from '../types';

export interface ChatRequest {
  url: string;
  apiKey: string | undefined;
  model: string;
  messages: unknown[];
  tools: Array<{ type: 'function'; function: { name: string; description?: string; parameters: object } }>;
  maxTokens: number;
  idempotencyKey: string;
  maxBodyBytes: number;
  redact: (text: string) => string;
}

export interface ChatAnswer {
  message: AssistantMessage;
  usage?: Usage;
}

interface Completion {
  choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } };
}

export async function chat(request: ChatRequest, signal: AbortSignal, timeoutMs?: number): Promise<ChatAnswer> {
  const { url, redact } = request;
  const within = timeoutMs ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : signal;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Idempotency-Key': request.idempotencyKey,
        ...(request.apiKey ? { Authorization: `Bearer ${request.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: request.model,
        messages: request.messages,
        ...(request.tools.length ? { tools: request.tools } : {}),
        max_tokens: request.maxTokens,
      }),
      signal: within,
    });
    markAnswered(url);
    text = await readBounded(response, request.maxBodyBytes);
  } catch (err) {
    if (signal.aborted) throw err;
    if ((err as Error).name === 'TimeoutError') {
      throw new ExecutorError(redact(`agent model call ${url}: timed out after ${timeoutMs} ms`), {
        type: 'TeamExecutorTimeout',
      });
    }
    const failure = transportFailure('agent model call', url, err);
    if (failure instanceof TransientModelError)
      throw new TransientModelError(redact(failure.message), failure.transient, { type: failure.type });
    throw new ExecutorError(redact(failure.message), { type: failure.type });
  }
  let body: Completion | undefined;
  try {
    body = JSON.parse(text) as Completion;
  } catch {
    // Reported below: an answer that is not JSON is the provider's error, worth another attempt.
  }
  const usage = usageOf(body, request.model);
  if (!response.ok) throw httpFailure('agent model call', url, response, text, { redact, usage });
  const message = body?.choices?.[0]?.message;
  const content = message?.content;
  const calls = toolCallsOf(message?.tool_calls);
  if (!message || (content !== null && content !== undefined && typeof content !== 'string') || calls === null) {
    throw new ExecutorError(
      redact(`agent model call ${url}: not a chat completion (retryable): ${text.slice(0, 500)}`),
      { type: 'TeamLlmBadResponse', usage },
    );
  }
  return {
    message: {
      role: 'assistant',
      content: typeof content === 'string' ? content : null,
      ...(calls.length ? { tool_calls: calls } : {}),
    },
    ...(usage ? { usage } : {}),
  };
}

function usageOf(body: Completion | undefined, model: string): Usage | undefined {
  if (!body?.usage) return undefined;
  const cached = body.usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    model,
    inputTokens: Math.max(0, (body.usage.prompt_tokens ?? 0) - cached),
    outputTokens: body.usage.completion_tokens ?? 0,
    cacheTokens: cached,
  };
}

/** The tool calls of an answer; null when they are not shaped as OpenAI's (the answer is then malformed). */
function toolCallsOf(value: unknown): ToolCall[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return null;
  const calls: ToolCall[] = [];
  for (const [i, call] of value.entries()) {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } })?.function;
    if (typeof fn?.name !== 'string') return null;
    const id = (call as { id?: unknown }).id;
    calls.push({
      id: typeof id === 'string' && id.length <= 200 ? id : `call_${i}`,
      type: 'function',
      function: { name: fn.name.slice(0, 200), arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' },
    });
  }
  return calls;
}
