import { TeamrunError } from '../../errors';
import { LlmSpecSchema, type LlmSpec, type Usage } from '../../plan/schema';
import { modelCallSpan } from '../../telemetry/spans';
import { MAILBOX_LIMITS } from '../../team/mailbox';
import { modelRetryPolicy } from '../../plan/model-retry';
import { priceUsage } from '../pricing';
import { Redactor } from '../redact';
import { defineExecutor } from './define';
import { TransientModelError, markAnswered, httpFailure, transportFailure, withModelRetry } from './model-retry';
import { ExecutorError, type ExecutorContext } from './types';

interface ChatCompletion {
  choices?: Array<{ message?: { content?: string } }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number };
  };
}

/**
 * `{{outputs.<key>}}` in a prompt is replaced by that dependency's output, and
 * `{{outputs.<key>.<field>...}}` by a field of it (`{{outputs.draft.content}}` is an llm task's answer).
 */
export function renderPrompt(template: string, outputs: Record<string, unknown>): string {
  return template.replace(/\{\{\s*outputs\.([A-Za-z0-9._:-]+)\s*\}\}/g, (_, ref: string) => {
    const value = lookup(ref, outputs);
    return typeof value === 'string' ? value : JSON.stringify(value ?? null);
  });
}

/** Task keys may contain dots: the longest prefix that names a dependency is the key, the rest a field path. */
function lookup(ref: string, outputs: Record<string, unknown>): unknown {
  const parts = ref.split('.');
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join('.');
    if (!Object.hasOwn(outputs, key)) continue;
    let value = outputs[key];
    for (const field of parts.slice(n)) {
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
    }
    return value;
  }
  return undefined;
}

/**
 * OpenAI-compatible chat completions. The base URL and the key come from the worker's config
 * and environment, never from the plan, so the key never reaches workflow history.
 */
export const llmExecutor = defineExecutor(LlmSpecSchema, (spec, ctx) =>
  // With tracing on, the call is a `gen_ai.*` span under the attempt's; failures are recorded on it.
  modelCallSpan({ model: spec.model, maxTokens: spec.maxTokens }, async () => {
    // A provider's outage is retried inside the attempt, as for an agent's model call (model-retry.ts).
    const answer = await withModelRetry(() => chat(spec, ctx), {
      policy: modelRetryPolicy(spec.modelRetry),
      signal: ctx.signal,
      ...(ctx.stopping ? { stopping: ctx.stopping } : {}),
      provider: ctx.config.worker.llm.baseUrl,
      onWait: (wait) => ctx.progress({ modelRetry: wait }),
    });
    const usage = answer.usage as Usage | undefined;
    return {
      answer,
      usage: {
        inputTokens: usage?.inputTokens,
        outputTokens: usage?.outputTokens,
        costUsd: priceUsage(usage, ctx.config.prices)?.costUsd,
      },
    };
  }),
);

async function chat(spec: LlmSpec, ctx: ExecutorContext) {
  const { baseUrl, apiKeyEnv } = ctx.config.worker.llm;
  const apiKey = ctx.env[apiKeyEnv];
  // Whatever this returns or throws is written to workflow history: the key must never be in it.
  const own = new Redactor(apiKey ? [{ name: apiKeyEnv, value: apiKey }] : []);
  const redact = (text: string) => own.text(ctx.redactor.text(text));
  const messages = (spec.messages ?? [{ role: 'user', content: spec.prompt ?? '' }]).map((m) => ({
    ...m,
    content: renderPrompt(m.content, ctx.dependencyOutputs),
  }));
  // What teammates sent before the attempt started joins the conversation, after the plan's messages.
  if (ctx.inbox.length) messages.push({ role: 'user', content: inboxPrompt(ctx.inbox) });
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
      body: JSON.stringify({
        model: spec.model,
        messages,
        ...(spec.maxTokens ? { max_tokens: spec.maxTokens } : {}),
        // A task that may add tasks answers in JSON: its `tasks` field holds them.
        ...(ctx.allowSpawn ? { response_format: { type: 'json_object' } } : {}),
      }),
      signal,
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    // The request may have been answered and billed: its usage is unknown, so it is charged its reservation.
    const unknown = ctx.signal.aborted || timedOut ? reservationCharge(spec.model, ctx) : undefined;
    if (ctx.signal.aborted) throw new ExecutorError(`llm ${url}: aborted`, { usage: unknown });
    if (timedOut) {
      throw new ExecutorError(redact(`llm ${url}: timed out after ${spec.timeoutMs} ms`), {
        type: 'TeamExecutorTimeout',
        usage: unknown,
      });
    }
    // No answer at all (refused, reset): nothing was billed.
    const failure = transportFailure('llm', url, err);
    if (failure instanceof TransientModelError)
      throw new TransientModelError(redact(failure.message), failure.transient, { type: failure.type });
    throw new ExecutorError(redact(failure.message), { type: failure.type });
  }
  markAnswered(url);
  let text: string;
  try {
    text = await readBounded(response, ctx.config.worker.http.maxBodyBytes);
  } catch (err) {
    if (ctx.signal.aborted || (err as Error).name === 'TimeoutError') {
      throw new ExecutorError(redact(`llm ${url}: ${(err as Error).message}`), {
        type: ctx.signal.aborted ? 'TeamExecutorFailed' : 'TeamExecutorTimeout',
        usage: reservationCharge(spec.model, ctx),
      });
    }
    throw new ExecutorError(redact(`llm ${url}: ${(err as Error).message}`), {
      nonRetryable: err instanceof BodyTooLarge,
      type: 'TeamLlmBadResponse',
    });
  }
  let body: ChatCompletion | undefined;
  try {
    body = JSON.parse(text) as ChatCompletion;
  } catch {
    // Reported below with the status.
  }
  const usage = body?.usage
    ? {
        model: spec.model,
        inputTokens: (body.usage.prompt_tokens ?? 0) - (body.usage.prompt_tokens_details?.cached_tokens ?? 0),
        outputTokens: body.usage.completion_tokens ?? 0,
        cacheTokens: body.usage.prompt_tokens_details?.cached_tokens ?? 0,
      }
    : undefined;
  if (usage) await ctx.budget?.report(usage);
  if (!response.ok) throw httpFailure('llm', url, response, text, { redact, usage });
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new ExecutorError(
      redact(`llm ${url}: HTTP ${response.status} without a chat completion: ${redact(text).slice(0, 500)}`),
      {
        type: 'TeamLlmBadResponse',
        usage,
      },
    );
  }
  const sent = messagesIn(content);
  const tasks = ctx.allowSpawn ? tasksIn(content) : undefined;
  return {
    output: { content: redact(content) },
    usage,
    ...(sent.length ? { messages: sent } : {}),
    ...(tasks ? { tasks } : {}),
  };
}

/**
 * What an llm request whose answer never came is charged: the attempt's grant (its reservation and
 * extensions), since the provider may have billed it; nothing where no limit applies.
 */
function reservationCharge(model: string, ctx: ExecutorContext): Usage | undefined {
  const granted = ctx.budget?.granted;
  if (!granted || (granted.tokens <= 0 && granted.usd <= 0)) return undefined;
  return {
    model,
    ...(granted.tokens > 0 ? { inputTokens: granted.tokens } : {}),
    ...(granted.usd > 0 ? { costUsd: granted.usd } : {}),
  };
}

class BodyTooLarge extends TeamrunError {
  readonly code = 'TeamLlmBodyTooLarge';
}

/** The response body, read up to `max` bytes and no further. */
export async function readBounded(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let read = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    read += chunk.length;
    // Leaving the loop cancels the stream.
    if (read > max) {
      throw new BodyTooLarge(`the response body is over ${max} bytes (worker.http.maxBodyBytes)`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The inbox as one user message: who sent what, in order. */
export function inboxPrompt(inbox: ExecutorContext['inbox']): string {
  const lines = inbox.map(
    (m) =>
      `- from ${m.from}${m.subject ? ` (${m.subject})` : ''}: ` +
      `${typeof m.body === 'string' ? m.body : JSON.stringify(m.body)}`,
  );
  return `Messages from your team:\n${lines.join('\n')}`;
}

/** Lines of an answer that are `::teamrun-message::{json}`: the model sends mail the way a shell task does. */
function messagesIn(content: string): unknown[] {
  const out: unknown[] = [];
  for (const line of content.split('\n')) {
    const at = line.indexOf('::teamrun-message::');
    if (at < 0 || out.length >= MAILBOX_LIMITS.perAttempt) continue;
    try {
      const value = JSON.parse(line.slice(at + '::teamrun-message::'.length)) as unknown;
      if (typeof value === 'object' && value !== null && typeof (value as { to?: unknown }).to === 'string')
        out.push(value);
    } catch {
      // Not a message: the line stays part of the answer and nothing is sent.
    }
  }
  return out;
}

/**
 * The `tasks` field of an answer in JSON (`{"tasks":[{"key":...,"executor":{...}}]}`), taken when
 * the plan allows the task to add tasks; the run checks them like any `addTasks` request. An
 * answer that is not JSON, or has no `tasks` array, adds nothing.
 */
function tasksIn(content: string): unknown[] | undefined {
  const json = content.trim().replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1');
  try {
    const parsed = JSON.parse(json) as { tasks?: unknown };
    return parsed && Array.isArray(parsed.tasks) ? parsed.tasks : undefined;
  } catch {
    return undefined;
  }
}
