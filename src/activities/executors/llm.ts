import { LlmSpecSchema, type LlmSpec, type Usage } from '../../plan/schema';
import { modelCallSpan } from '../../telemetry/spans';
import { MAILBOX_LIMITS } from '../../team/mailbox';
import { modelRetryPolicy } from '../../plan/model-retry';
import { priceUsage } from '../pricing';
import { Redactor } from '../redact';
import { defineExecutor } from './define';
import { withModelRetry } from './model-retry';
import { resolveModel, type ResolvedModel } from './model/provider';
import { toPrompt } from './model/prompt';
import { streamModel } from './model/stream';
import type { ExecutorContext } from './types';

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
 * One model call, through the same door as an agent's turn (model/stream.ts): the model the task names, from
 * createWorker({ models }), `worker.models` or `worker.llm`; streamed; its usage read from the provider's answer.
 * The key comes from the worker's environment, never from the plan, so it never reaches workflow history.
 */
export const llmExecutor = defineExecutor(LlmSpecSchema, (spec, ctx) =>
  // With tracing on, the call is a `gen_ai.*` span under the attempt's; failures are recorded on it.
  modelCallSpan({ model: spec.model, maxTokens: spec.maxTokens }, async () => {
    const resolved = resolveModel(spec.model, ctx.config, ctx.env, ctx.models);
    // A provider's outage is retried inside the attempt, as for an agent's model call (model-retry.ts).
    const answer = await withModelRetry(() => chat(spec, ctx, resolved), {
      policy: modelRetryPolicy(spec.modelRetry),
      signal: ctx.signal,
      ...(ctx.stopping ? { stopping: ctx.stopping } : {}),
      provider: resolved.where,
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

async function chat(spec: LlmSpec, ctx: ExecutorContext, resolved: ResolvedModel) {
  // Whatever this returns or throws is written to workflow history: the key must never be in it.
  const own = new Redactor(resolved.secret ? [resolved.secret] : []);
  const redact = (text: string) => own.text(ctx.redactor.text(text));
  const messages = (spec.messages ?? [{ role: 'user', content: spec.prompt ?? '' }]).map((m) => ({
    ...m,
    content: renderPrompt(m.content, ctx.dependencyOutputs),
  }));
  // What teammates sent before the attempt started joins the conversation, after the plan's messages.
  if (ctx.inbox.length) messages.push({ role: 'user', content: inboxPrompt(ctx.inbox) });
  const answer = await streamModel({
    model: resolved.model,
    name: spec.model,
    where: resolved.where,
    ...(resolved.origin ? { origin: resolved.origin } : {}),
    prompt: toPrompt(messages),
    ...(spec.maxTokens ? { maxTokens: spec.maxTokens } : {}),
    // A task that may add tasks answers in JSON: its `tasks` field holds them.
    ...(ctx.allowSpawn ? { json: true } : {}),
    headers: { 'Idempotency-Key': `${ctx.workflowId}/${ctx.taskKey}/${ctx.fencingToken}` },
    signal: ctx.signal,
    ...(spec.timeoutMs ? { timeoutMs: spec.timeoutMs } : {}),
    maxChars: ctx.config.worker.http.maxBodyBytes,
    redact,
    turn: 1,
    ...(ctx.live ? { live: ctx.live } : {}),
    moved: (step: string) => ctx.moved?.(step),
    // The request may have been answered and billed: its usage is unknown, so it is charged its reservation.
    ...(ctx.budget ? { markUnknown: () => ctx.budget?.markUnknown?.() } : {}),
    ...withCharge(reservationCharge(spec.model, ctx)),
    label: 'llm',
  });
  const usage = answer.usage;
  if (usage) await ctx.budget?.report(usage);
  const content = answer.text;
  const sent = messagesIn(content);
  const tasks = ctx.allowSpawn ? tasksIn(content) : undefined;
  return {
    output: { content: redact(content) },
    usage,
    ...(sent.length ? { messages: sent } : {}),
    ...(tasks ? { tasks } : {}),
  };
}

const withCharge = (usage: Usage | undefined) => (usage ? { unknownCharge: usage } : {});

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
