/**
 * One model call through the AI SDK's provider interface (`doStream`), streamed: text and tool-call arguments
 * reach `live` as they arrive and count as progress for the stall watch; the answer is whole once the stream
 * finishes. A provider's transient answer (429, 408, 5xx, 529, a reset) throws a TransientModelError carrying its
 * Retry-After (model-retry.ts retries it as the same step); a permanent one a non-retryable ExecutorError. A call
 * aborted, timed out or cut mid-stream may have been billed: it is charged `unknownCharge` (its reservation) and
 * the attempt's usage marked unknown (`markUnknown`). The SDK's own retries are never used: doStream has none.
 */
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import type { ToolCall } from '../../../agent/types';
import type { Usage } from '../../../plan/schema';
import type { LiveOutput } from '../live';
import { TransientModelError, httpFailure, markAnswered, transportFailure } from '../model-retry';
import { ExecutorError } from '../types';
import { normalUsage } from './usage';

/** The stream counts as progress at most this often (the stall watch needs no more). */
export const STREAM_MOVED_EVERY_MS = 1_000;

/** The failure type of a call its attempt's stop aborted. */
export const ABORTED_CALL = 'TeamLlmAborted';

export interface ModelCall {
  model: LanguageModelV3;
  /** The task's name for the model: usage records carry it, and prices are looked up by it. */
  name: string;
  /** Who answers, for errors. */
  where: string;
  prompt: LanguageModelV3CallOptions['prompt'];
  tools?: LanguageModelV3CallOptions['tools'];
  maxTokens?: number;
  /** Answer in JSON (an llm task that may add tasks). */
  json?: boolean;
  headers: Record<string, string>;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Text and tool-call arguments together are read up to this many characters, and no further. */
  maxChars: number;
  redact: (text: string) => string;
  turn: number;
  live?: LiveOutput;
  moved?: (step: string) => void;
  /** What a call whose usage never came is charged (its reservation); undefined where nothing limits spend. */
  unknownCharge?: Usage;
  markUnknown?: () => void;
  label: string;
  /** The provider's API root, when known: once it answered, a refused connection there is an outage. */
  origin?: string;
}

export interface ModelAnswer {
  text: string;
  toolCalls: ToolCall[];
  usage?: Usage;
}

export async function streamModel(call: ModelCall): Promise<ModelAnswer> {
  const timeout = call.timeoutMs ? AbortSignal.timeout(call.timeoutMs) : undefined;
  const abortSignal = timeout ? AbortSignal.any([call.signal, timeout]) : call.signal;
  const drafts = new Map<string, { name: string; args: string }>();
  const calls: ToolCall[] = [];
  let text = '';
  let usage: Usage | undefined;
  let finished = false;
  let movedAt = 0;
  const progressed = () => {
    if (text.length + [...drafts.values()].reduce((n, d) => n + d.args.length, 0) > call.maxChars) {
      throw new ExecutorError(`${call.label} ${call.where}: the answer is over ${call.maxChars} characters`, {
        nonRetryable: true,
        type: 'TeamLlmBodyTooLarge',
      });
    }
    call.live?.partial({ turn: call.turn, text, toolCalls: [...drafts.values()].map((d) => ({ ...d })) });
    const now = Date.now();
    if (now - movedAt >= STREAM_MOVED_EVERY_MS) {
      movedAt = now;
      call.moved?.('model stream');
    }
  };
  let opened = false;
  try {
    const { stream } = await call.model.doStream({
      prompt: call.prompt,
      ...(call.tools?.length ? { tools: call.tools } : {}),
      ...(call.maxTokens ? { maxOutputTokens: call.maxTokens } : {}),
      ...(call.json ? { responseFormat: { type: 'json' as const } } : {}),
      headers: call.headers,
      abortSignal,
    });
    opened = true;
    if (call.origin) markAnswered(call.origin);
    for await (const part of stream as unknown as AsyncIterable<LanguageModelV3StreamPart>) {
      const seen = partOf(part);
      if (seen.kind === 'error') throw seen.error;
      if (seen.kind === 'text') text += seen.delta;
      else if (seen.kind === 'tool-start') drafts.set(seen.id, { name: seen.name.slice(0, 200), args: '' });
      else if (seen.kind === 'tool-delta') {
        const draft = drafts.get(seen.id);
        if (draft) draft.args += seen.delta;
      } else if (seen.kind === 'tool-call') {
        calls.push({
          id: seen.id.slice(0, 200),
          type: 'function',
          function: { name: seen.name, arguments: seen.args },
        });
      } else if (seen.kind === 'finish') {
        usage = normalUsage(seen.usage, call.name);
        finished = true;
        continue;
      } else continue;
      progressed();
    }
    if (!finished) throw new Error('the stream ended before the answer finished');
  } catch (err) {
    throw failure(err, call, { opened, timedOut: timeout?.aborted === true });
  } finally {
    call.live?.done(call.turn);
  }
  return { text, toolCalls: calls, ...(usage ? { usage } : {}) };
}

type Seen =
  | { kind: 'text'; delta: string }
  | { kind: 'tool-start'; id: string; name: string }
  | { kind: 'tool-delta'; id: string; delta: string }
  | { kind: 'tool-call'; id: string; name: string; args: string }
  | { kind: 'finish'; usage: Parameters<typeof normalUsage>[0] }
  | { kind: 'error'; error: unknown }
  | { kind: 'other' };

function partOf(part: LanguageModelV3StreamPart): Seen {
  switch (part.type) {
    case 'text-delta':
      return { kind: 'text', delta: part.delta };
    case 'tool-input-start':
      return { kind: 'tool-start', id: part.id, name: part.toolName };
    case 'tool-input-delta':
      return { kind: 'tool-delta', id: part.id, delta: part.delta };
    case 'tool-call':
      return { kind: 'tool-call', id: part.toolCallId, name: part.toolName, args: part.input };
    case 'finish':
      return { kind: 'finish', usage: part.usage };
    case 'error':
      return { kind: 'error', error: part.error };
    default:
      return { kind: 'other' };
  }
}

/** What a failed call throws: retried as the same step, failed for good, or charged as usage unknown. */
function failure(err: unknown, call: ModelCall, state: { opened: boolean; timedOut: boolean }): ExecutorError {
  if (err instanceof ExecutorError) return err;
  const { redact, label, where } = call;
  const api = APICallError.isInstance(err) ? err : undefined;
  // Asked and not answered whole: the provider may have billed it.
  const unknown = (message: string, type: string) => {
    call.markUnknown?.();
    return new ExecutorError(redact(message), { type, ...(call.unknownCharge ? { usage: call.unknownCharge } : {}) });
  };
  if (call.signal.aborted) return unknown(`${label} ${where}: aborted`, ABORTED_CALL);
  if (state.timedOut) return unknown(`${label} ${where}: timed out after ${call.timeoutMs} ms`, 'TeamExecutorTimeout');
  const answered = api?.statusCode !== undefined && api.statusCode >= 200 && api.statusCode < 300;
  if (api?.statusCode !== undefined && !answered) {
    markAnswered(api.url);
    const headers = api.responseHeaders ?? {};
    const response = { status: api.statusCode, headers: { get: (name: string) => headers[name] ?? null } };
    const body = (api.responseBody ?? api.message).slice(0, 2_000);
    return httpFailure(label, api.url ?? where, response, body, { redact });
  }
  if (state.opened || answered) {
    const reason = (err as Error)?.message ?? String(err);
    return unknown(`${label} ${where}: the stream was cut: ${reason.slice(0, 500)}`, 'TeamLlmStreamCut');
  }
  // No answer at all (refused, reset): nothing was billed.
  const failed = transportFailure(label, api?.url ?? where, api ?? err);
  if (failed instanceof TransientModelError)
    return new TransientModelError(redact(failed.message), failed.transient, { type: failed.type });
  return new ExecutorError(redact(failed.message), { type: failed.type });
}
