import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModel } from '../../src/activities/executors/model/provider';
import { streamModel, type ModelCall } from '../../src/activities/executors/model/stream';
import type { PartialOutput } from '../../src/activities/executors/live';
import { TransientModelError } from '../../src/activities/executors/model-retry';
import { ExecutorError } from '../../src/activities/executors/types';
import { ConfigSchema } from '../../src/config/config';
import { startAnthropicServer, type AnthropicServer } from '../helpers/anthropic-server';
import { startGoogleServer, type GoogleServer } from '../helpers/google-server';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import type { Hold, ProviderRequest } from '../helpers/provider-sse';

const ANSWER = 'Hello, this answer streams in pieces.';
const reservation = { model: 'm', inputTokens: 1_000, costUsd: 0.015 };

/** What a test holds the stream with, per request: set before the call, read by the servers' scripts. */
let hold: Hold | undefined;
let status: { status: number; headers: Record<string, string> } | undefined;

async function until(what: string, check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('a model call streamed through each provider package', () => {
  let anthropic: AnthropicServer;
  let google: GoogleServer;
  let openai: OpenAiServer;
  const turn = (_r: ProviderRequest) =>
    status ? { ...status } : { text: ANSWER, usage: undefined, ...(hold ? { hold } : {}) };
  beforeAll(async () => {
    anthropic = await startAnthropicServer((r) => ({ ...turn(r), usage: { inputTokens: 5, outputTokens: 7 } }));
    google = await startGoogleServer((r) => ({ ...turn(r), usage: { promptTokens: 5, candidatesTokens: 7 } }));
    openai = await startOpenAiServer();
    openai.script('m', () =>
      status
        ? { ...status, body: () => ({ error: { message: 'busy' } }) }
        : { content: ANSWER, usage: { promptTokens: 5, completionTokens: 7 }, ...(hold ? { hold } : {}) },
    );
  });
  afterAll(async () => {
    await Promise.all([anthropic?.close(), google?.close(), openai?.close()]);
  });

  const providers = () => ({
    anthropic: { provider: 'anthropic', model: 'm', baseUrl: anthropic.baseUrl },
    google: { provider: 'google', model: 'm', baseUrl: google.baseUrl },
    openai: { provider: 'openai', model: 'm', baseUrl: openai.baseUrl },
  });

  /** One call as an agent's turn makes it, recording what reaches `live` and the stall watch. */
  function call(provider: 'anthropic' | 'google' | 'openai', options: Partial<ModelCall> = {}) {
    const config = ConfigSchema.parse({ worker: { models: { m: providers()[provider] } } });
    const resolved = resolveModel('m', config, {}, undefined);
    const seen = { partials: [] as PartialOutput[], done: [] as number[], moved: [] as string[], unknown: 0 };
    const promise = streamModel({
      ...resolved,
      name: 'm',
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      maxTokens: 1_000,
      headers: {},
      signal: new AbortController().signal,
      maxChars: 1_000_000,
      redact: (t) => t,
      turn: 3,
      live: { partial: (p) => void seen.partials.push(p), done: (t) => void seen.done.push(t) },
      moved: (step) => void seen.moved.push(step),
      unknownCharge: reservation,
      markUnknown: () => void seen.unknown++,
      label: 'agent model call',
      ...options,
    });
    let settled = false;
    void promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    return { promise, seen, settled: () => settled };
  }

  for (const provider of ['anthropic', 'google', 'openai'] as const) {
    it(`${provider}: live receives the partial text while the stream is held open mid-answer`, async () => {
      let resume!: () => void;
      hold = { afterChars: 12, resume: new Promise<void>((r) => (resume = r)) };
      try {
        const { promise, seen, settled } = call(provider);
        await until('the partial text', () => seen.partials.some((p) => p.text === ANSWER.slice(0, 12)));
        // The stream is held: the call has not ended, and live has its text so far, for turn 3.
        expect(settled()).toBe(false);
        expect(seen.partials.at(-1)).toMatchObject({ turn: 3, text: ANSWER.slice(0, 12) });
        expect(seen.done).toEqual([]);
        expect(seen.moved[0]).toBe('model stream');
        resume();
        const answer = await promise;
        expect(answer.text).toBe(ANSWER);
        expect(answer.usage).toMatchObject({ model: 'm', inputTokens: 5, outputTokens: 7 });
        expect(seen.done).toEqual([3]);
      } finally {
        hold = undefined;
      }
    });
  }

  it('aborted mid-stream: charged its reservation, usage marked unknown', async () => {
    hold = { afterChars: 12, resume: new Promise(() => undefined) };
    try {
      const stop = new AbortController();
      const { promise, seen } = call('anthropic', { signal: stop.signal });
      await until('the partial text', () => seen.partials.length > 0);
      stop.abort(new Error('interrupted'));
      const err = (await promise.catch((e: unknown) => e)) as ExecutorError;
      expect(err).toBeInstanceOf(ExecutorError);
      expect(err.type).toBe('TeamLlmAborted');
      expect(err.usage).toEqual(reservation);
      expect(seen.unknown).toBe(1);
      expect(seen.done).toEqual([3]);
    } finally {
      hold = undefined;
    }
  });

  it('timed out mid-stream: charged its reservation, usage marked unknown', async () => {
    hold = { afterChars: 12, resume: new Promise(() => undefined) };
    try {
      const { promise, seen } = call('openai', { timeoutMs: 500 });
      const err = (await promise.catch((e: unknown) => e)) as ExecutorError;
      expect(err.type).toBe('TeamExecutorTimeout');
      expect(err.message).toContain('timed out after 500 ms');
      expect(err.usage).toEqual(reservation);
      expect(seen.unknown).toBe(1);
    } finally {
      hold = undefined;
    }
  });

  it('cut mid-stream by the provider: charged its reservation, usage marked unknown', async () => {
    hold = { afterChars: 12, cut: true };
    try {
      const { promise, seen } = call('google');
      const err = (await promise.catch((e: unknown) => e)) as ExecutorError;
      expect(err.type).toBe('TeamLlmStreamCut');
      expect(err.usage).toEqual(reservation);
      expect(seen.unknown).toBe(1);
    } finally {
      hold = undefined;
    }
  });

  it('an overloaded 529 is transient and carries its Retry-After; nothing is charged (it was refused)', async () => {
    status = { status: 529, headers: { 'retry-after': '2' } };
    try {
      const { promise, seen } = call('anthropic');
      const err = (await promise.catch((e: unknown) => e)) as TransientModelError;
      expect(err).toBeInstanceOf(TransientModelError);
      expect(err.transient).toEqual({ status: 529, retryAfterMs: 2_000 });
      expect(err.usage).toBeUndefined();
      expect(seen.unknown).toBe(0);
    } finally {
      status = undefined;
    }
  });
});
