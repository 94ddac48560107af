import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { resolveModel } from '../../src/activities/executors/model/provider';
import { streamModel } from '../../src/activities/executors/model/stream';
import {
  TransientModelError,
  markAnswered,
  retryAfterMs,
  transportFailure,
  withModelRetry,
  type RetryWait,
} from '../../src/activities/executors/model-retry';
import { ExecutorError } from '../../src/activities/executors/types';
import { AgentSpecSchema } from '../../src/plan/agent';
import { MODEL_RETRY_LIMITS, modelRetryPolicy } from '../../src/plan/model-retry';

const fast = modelRetryPolicy({ initialIntervalMs: 5, maxIntervalMs: 40, maxElapsedMs: 5_000 });
const transient = (status: number | null, retryAfter: number | null = null) =>
  new TransientModelError(`HTTP ${status}`, { status, retryAfterMs: retryAfter }, { type: `TeamLlm${status}` });

/** A call that fails with each of `failures` in turn, then answers; counts its calls. */
function scripted(...failures: Error[]) {
  const state = { calls: 0 };
  const call = async () => {
    const failure = failures[state.calls++];
    if (failure) throw failure;
    return 'answer';
  };
  return { state, call };
}

describe('a model call retried inside its attempt', () => {
  it('given a provider answering 500, 503 and 429, then 200: the call answers, each failure retried once, waits growing', async () => {
    const { state, call } = scripted(transient(500), transient(503), transient(429));
    const waits: RetryWait[] = [];
    const answer = await withModelRetry(call, {
      policy: fast,
      signal: new AbortController().signal,
      provider: 'http://model',
      random: () => 1,
      onWait: (w) => waits.push(w),
    });
    expect(answer).toBe('answer');
    expect(state.calls).toBe(4);
    expect(waits.map((w) => [w.tries, w.status, w.waitMs])).toEqual([
      [1, 500, 5],
      [2, 503, 10],
      [3, 429, 20],
    ]);
  });

  it("waits at least what Retry-After asks, up to the policy's longest wait", async () => {
    const waits: number[] = [];
    const policy = modelRetryPolicy({ initialIntervalMs: 5, maxIntervalMs: 300, maxElapsedMs: 5_000 });
    const { call } = scripted(transient(429, 120), transient(429, 60_000));
    const started = Date.now();
    await withModelRetry(call, {
      policy,
      signal: new AbortController().signal,
      provider: 'p',
      onWait: (w) => waits.push(w.waitMs),
    });
    expect(waits).toEqual([120, 300]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(415);
  });

  it('a permanent error (a plain ExecutorError: 400, 401, 403, 404) fails at once, tried once', async () => {
    const refused = new ExecutorError('HTTP 401', { nonRetryable: true, type: 'TeamLlm401' });
    const { state, call } = scripted(refused);
    await expect(
      withModelRetry(call, { policy: fast, signal: new AbortController().signal, provider: 'p' }),
    ).rejects.toBe(refused);
    expect(state.calls).toBe(1);
  });

  it('once the policy is spent: TEAM_TASK_MODEL_UNAVAILABLE, for good, naming the provider, the tries and the last status', async () => {
    const policy = modelRetryPolicy({ initialIntervalMs: 20, maxIntervalMs: 20, maxElapsedMs: 100 });
    const state = { calls: 0 };
    const err = await withModelRetry(
      async () => {
        state.calls++;
        throw transient(502);
      },
      { policy, signal: new AbortController().signal, provider: 'http://model.example/v1' },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutorError);
    const failure = err as ExecutorError;
    expect(failure.type).toBe('TEAM_TASK_MODEL_UNAVAILABLE');
    expect(failure.nonRetryable).toBe(true);
    expect(failure.message).toContain('http://model.example/v1');
    expect(failure.message).toContain(`${state.calls} tries`);
    expect(failure.message).toContain('the last HTTP 502');
    expect(state.calls).toBeGreaterThanOrEqual(4);
  });

  it('a stop ends the wait at once, with its reason; a worker shutting down hands the attempt back', async () => {
    const policy = modelRetryPolicy({ initialIntervalMs: 60_000, maxIntervalMs: 60_000 });
    const stop = new AbortController();
    const started = Date.now();
    const stopped = withModelRetry(scripted(transient(500)).call, { policy, signal: stop.signal, provider: 'p' });
    setTimeout(() => stop.abort(new Error('interrupted by alice')), 50);
    await expect(stopped).rejects.toThrow('interrupted by alice');
    expect(Date.now() - started).toBeLessThan(30_000);

    const stopping = new AbortController();
    const handedBack = withModelRetry(scripted(transient(500)).call, {
      policy,
      signal: new AbortController().signal,
      stopping: stopping.signal,
      provider: 'p',
    });
    setTimeout(() => stopping.abort(), 50);
    await expect(handedBack).rejects.toMatchObject({ type: 'TeamWorkerShutdown' });
    // Stopping already: no call starts.
    const { state, call } = scripted();
    await expect(
      withModelRetry(call, { policy, signal: new AbortController().signal, stopping: stopping.signal, provider: 'p' }),
    ).rejects.toMatchObject({ type: 'TeamWorkerShutdown' });
    expect(state.calls).toBe(0);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('5', now)).toBe(5_000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('a reset connection is transient; a refused one only where the server answered before', () => {
    const err = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: { code, message: code } });
    expect(transportFailure('llm', 'http://a.test/v1', err('ECONNRESET'))).toBeInstanceOf(TransientModelError);
    const refused = transportFailure('llm', 'http://b.test/v1', err('ECONNREFUSED'));
    expect(refused).not.toBeInstanceOf(TransientModelError);
    expect(refused.message).toContain('http://b.test/v1');
    expect(refused.message).toContain('ECONNREFUSED');
    // The same server refusing after it answered once: an outage, retried.
    markAnswered('http://b.test/v1/chat/completions');
    expect(transportFailure('llm', 'http://b.test/v1', err('ECONNREFUSED'))).toBeInstanceOf(TransientModelError);
  });
});

describe("the agent's model call", () => {
  /** One streamed call to worker.llm at `baseUrl` (an OpenAI-compatible model), as an agent's turn makes it. */
  const chat = (baseUrl: string) => {
    const config = ConfigSchema.parse({ worker: { llm: { baseUrl } } });
    const resolved = resolveModel('m', config, {}, undefined);
    return streamModel({
      ...resolved,
      name: 'm',
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      maxTokens: 10,
      headers: { 'Idempotency-Key': 'k' },
      signal: new AbortController().signal,
      maxChars: 1_000_000,
      redact: (t: string) => t,
      turn: 1,
      label: 'agent model call',
    });
  };

  it('refused on its very first call: names the URL and the cause, not a bare "fetch failed"', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const url = `http://127.0.0.1:${port}/v1`;
    const err = (await chat(url).catch((e: unknown) => e)) as ExecutorError;
    expect(err).toBeInstanceOf(ExecutorError);
    expect(err).not.toBeInstanceOf(TransientModelError);
    expect(err.message).toContain(url);
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).toContain('worker.llm.baseUrl');
  });

  it('a 429 is transient and carries its Retry-After; a 404 fails for good, saying what to check', async () => {
    let status = 429;
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'Retry-After': '5', 'Content-Type': 'application/json' });
      res.end('{"error":{"message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      const limited = await chat(url).catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(TransientModelError);
      expect((limited as TransientModelError).transient).toEqual({ status: 429, retryAfterMs: 5_000 });
      status = 404;
      const missing = (await chat(url).catch((e: unknown) => e)) as ExecutorError;
      expect(missing).not.toBeInstanceOf(TransientModelError);
      expect(missing.nonRetryable).toBe(true);
      expect(missing.message).toContain('HTTP 404');
      expect(missing.message).toContain('no such model or endpoint');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('the modelRetry policy of a task', () => {
  it('defaults to 10 minutes in all, and refuses what is out of bounds', () => {
    expect(modelRetryPolicy(undefined)).toEqual({
      maxElapsedMs: 600_000,
      initialIntervalMs: 1_000,
      maxIntervalMs: 60_000,
      backoffCoefficient: 2,
    });
    const agent = (modelRetry: unknown) => AgentSpecSchema.safeParse({ model: 'm', prompt: 'p', modelRetry }).success;
    expect(agent({ maxElapsedMs: 30_000, initialIntervalMs: 500 })).toBe(true);
    expect(agent({ maxElapsedMs: MODEL_RETRY_LIMITS.maxElapsedMs + 1 })).toBe(false);
    expect(agent({ maxIntervalMs: 100, initialIntervalMs: 200 })).toBe(false);
    expect(agent({ tries: 3 })).toBe(false);
  });
});
