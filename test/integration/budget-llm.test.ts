import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamRunHandle } from '../../src/client';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { startRun, testConfig, waitFor } from '../helpers/env';
import { workerForTest, type OnTestFinished } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_LLM_KEY';
const API_KEY = 'sk-test-5f0c1e9a7b3d4c2e8a6b';

/** $2 per million input tokens, $8 per million output, $1 per million cached: one call below costs $0.0046. */
const prices = { 'gpt-test': { inputPerMTok: 2, outputPerMTok: 8, cachePerMTok: 1 } };
const oneCall = { promptTokens: 1_200, completionTokens: 300, cachedTokens: 200 };

/** The run's whole history as text, payloads decoded, so a search sees what the Web UI would show. */
async function historyText(handle: TeamRunHandle): Promise<string> {
  const history = await handle.fetchHistory();
  return JSON.stringify(history, (key, value: unknown) => {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
    // Payload data and metadata come as base64 in the history's JSON form.
    if ((key === 'data' || key === 'encoding') && typeof value === 'string')
      return Buffer.from(value, 'base64').toString('utf8');
    return value;
  });
}

describe.concurrent('the llm executor against a local OpenAI-compatible server', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
    server.model('gpt-test', { usage: oneCall });
    server.model('flaky-model', { status: 429 }, { status: 500 }, { usage: { promptTokens: 10, completionTokens: 5 } });
    server.model('bad-model', { status: 400 });
    // A provider that echoes the credential it was sent in its error.
    server.model('leaky-model', {
      status: 401,
      body: (req) => ({ error: { message: `invalid key: ${req.authorization}` } }),
    });
    server.model('slow-model', { delayMs: 30_000, usage: oneCall });
  });
  afterAll(async () => {
    await server?.close();
  });

  const llmWorker = (finished: OnTestFinished) =>
    workerForTest(
      {
        config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }, prices),
        env: { [KEY_ENV]: API_KEY },
      },
      finished,
    );
  const requestsFor = (model: string) => server.requests.filter((r) => r.model === model);

  it('charges the tokens and dollars the provider reports; the key reaches the provider but never the history', async ({
    onTestFinished,
  }) => {
    const worker = await llmWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'llm-charges',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        budget: { maxTokens: 100_000, maxUsd: 1 },
        tasks: [
          { key: 'draft', executor: { kind: 'llm', model: 'gpt-test', prompt: 'Write a haiku about budgets' } },
          {
            key: 'review',
            dependsOn: ['draft'],
            executor: {
              kind: 'llm',
              model: 'gpt-test',
              maxTokens: 200,
              messages: [
                { role: 'system', content: 'You review haiku.' },
                { role: 'user', content: 'Review this: {{outputs.draft.content}}' },
              ],
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.budget.used).toMatchObject({ tokens: 3_000, usd: 0.0092 });
    expect(result.tasks[0].usage).toEqual({ inputTokens: 1_000, outputTokens: 300, cacheTokens: 200, costUsd: 0.0046 });
    // The server answers with the last user message: the review saw the draft's answer.
    expect(result.tasks[1].output).toEqual({ content: 'Review this: Write a haiku about budgets' });

    const sent = server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(sent.map((r) => [r.path, r.idempotencyKey, r.authorization])).toEqual([
      ['/v1/chat/completions', `${handle.workflowId}/draft/1`, `Bearer ${API_KEY}`],
      ['/v1/chat/completions', `${handle.workflowId}/review/1`, `Bearer ${API_KEY}`],
    ]);
    expect(sent[1]).toMatchObject({
      maxTokens: 200,
      messages: [{ role: 'system' }, { content: 'Review this: Write a haiku about budgets' }],
    });

    const history = await historyText(handle);
    expect(history).toContain('Write a haiku about budgets');
    expect(history).not.toContain(API_KEY);
  });

  it('retries rate limits and server errors inside the attempt, not other 4xx, and redacts a key the provider echoes', async ({
    onTestFinished,
  }) => {
    const worker = await llmWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'llm-retries',
        teammates: 3,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        retry: { maxAttempts: 3, backoffMs: 10 },
        tasks: [
          {
            key: 'flaky',
            executor: { kind: 'llm', model: 'flaky-model', prompt: 'hello', modelRetry: { initialIntervalMs: 50 } },
          },
          { key: 'bad', executor: { kind: 'llm', model: 'bad-model', prompt: 'hello' } },
          { key: 'leaky', executor: { kind: 'llm', model: 'leaky-model', prompt: 'hello' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.tasks.map((t) => [t.key, t.status, t.attempts])).toEqual([
      // The 429 and the 500 were retried by the attempt itself, as the same call.
      ['flaky', 'succeeded', 1],
      ['bad', 'failed', 1],
      ['leaky', 'failed', 1],
    ]);
    expect(requestsFor('flaky-model').map((r) => r.status)).toEqual([429, 500, 200]);
    expect(result.tasks[0].usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(result.tasks[1].lastError).toContain('HTTP 400');
    expect(result.tasks[1].lastError).toContain('refused the request as malformed');
    expect(result.tasks[2].lastError).toContain(`invalid key: Bearer [redacted:${KEY_ENV}]`);

    expect(requestsFor('leaky-model')[0].authorization).toBe(`Bearer ${API_KEY}`);
    const history = await historyText(handle);
    expect(history).toContain('HTTP 401');
    expect(history).not.toContain(API_KEY);
  });

  it('an llm request that times out is charged its reservation: its usage is unknown, the provider may bill it', async ({
    onTestFinished,
  }) => {
    const worker = await llmWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'llm-timeout-charged',
        retry: { maxAttempts: 1 },
        budget: { maxTokens: 10_000 },
        tasks: [
          {
            key: 'slow',
            estimate: { tokens: 500 },
            executor: { kind: 'llm', model: 'slow-model', prompt: 'take your time', timeoutMs: 1_000 },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.tasks[0]).toMatchObject({ status: 'failed', usage: { inputTokens: 500 } });
    expect(result.tasks[0].lastError).toContain('timed out after 1000 ms');
    expect(result.budget).toMatchObject({ used: { tokens: 500 }, reserved: { tokens: 0 } });
  });

  it('a cancelled attempt aborts its HTTP request', async ({ onTestFinished }) => {
    const worker = await llmWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'llm-cancel',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        awaitAdjudication: false,
        budget: { maxWallMs: 2_000 },
        tasks: [{ key: 'slow', executor: { kind: 'llm', model: 'slow-model', prompt: 'take your time' } }],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-wall-ms' });
    expect(result.adjudications).toMatchObject([{ key: 'slow', code: 'TEAM_WALL_BUDGET_EXHAUSTED' }]);
    const request = await waitFor('the server to see the request aborted', () =>
      server.requests.find((r) => r.idempotencyKey === `${handle.workflowId}/slow/1` && r.aborted),
    );
    expect(request.status).toBeNull();
  });
});
