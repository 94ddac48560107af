import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { startAnthropicServer, type AnthropicServer, type AnthropicUsage } from '../helpers/anthropic-server';
import { startGoogleServer, type GoogleServer, type GoogleUsage } from '../helpers/google-server';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import type { ProviderRequest, ProviderTurn } from '../helpers/provider-sse';
import { startRun, testConfig, waitFor } from '../helpers/env';
import { workerForSuite } from '../helpers/scenario';

const root = path.resolve(__dirname, '../..');
/** The reference filesystem MCP server, from npm (not written here), run over stdio. */
const filesystemServer = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const NOTES = 'Ship on Friday. Tests are green.';

/**
 * Dollars per million tokens. Claude: one turn is 100 input, 20 output, 1,000 read from the prompt cache and 200
 * written to it: (100*3 + 20*15 + 1000*0.3 + 200*3.75) / 1e6 = $0.00165. GPT: 1,200 prompt of which 200 cached,
 * 300 output: (1000*2 + 300*8 + 200*1) / 1e6 = $0.0046. Gemini: 800 prompt of which 400 cached, 50 answer and 30
 * thinking: (400*1 + 80*4 + 400*0.25) / 1e6 = $0.00082.
 */
const prices = {
  claude: { inputPerMTok: 3, outputPerMTok: 15, cachePerMTok: 0.3, cacheWritePerMTok: 3.75 },
  gpt: { inputPerMTok: 2, outputPerMTok: 8, cachePerMTok: 1 },
  gemini: { inputPerMTok: 1, outputPerMTok: 4, cachePerMTok: 0.25 },
  'claude-busy': { inputPerMTok: 3, outputPerMTok: 15, cachePerMTok: 0.3, cacheWritePerMTok: 3.75 },
  // A call of 1,000 tokens is reserved at the dearest rate: 1000 * 15 / 1e6 = $0.015.
  'claude-hold': { inputPerMTok: 3, outputPerMTok: 15 },
};
const claudeTurn: AnthropicUsage = {
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 1_000,
  cacheWriteTokens: 200,
};
const geminiTurn: GoogleUsage = { promptTokens: 800, candidatesTokens: 50, cachedTokens: 400, thoughtsTokens: 30 };
const gptTurn = { promptTokens: 1_200, completionTokens: 300, cachedTokens: 200 };

describe.concurrent('an agent on each provider, through its AI SDK package and its own wire format', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-providers-'));
  writeFileSync(path.join(dir, 'notes.txt'), NOTES);
  const notes = path.join(dir, 'notes.txt');
  let anthropic: AnthropicServer;
  let google: GoogleServer;
  let openai: OpenAiServer;
  /** Turn 1 reads the notes through MCP; turn 2 answers with what the tool returned. */
  const readThenAnswer =
    <U>(usage: U) =>
    (r: ProviderRequest): ProviderTurn<U> =>
      r.turn === 1
        ? { usage, text: 'Reading the notes.', toolCalls: [{ name: 'fs__read_text_file', arguments: { path: notes } }] }
        : { usage, text: `The notes say: ${r.toolResults[0]}` };
  let failNext429 = true;

  // The worker starts after the servers (its beforeAll is registered below): its config names their ports.
  const config = testConfig({}, prices);
  beforeAll(async () => {
    anthropic = await startAnthropicServer((r) => {
      // The provider is busy once, asking for 1 s: the same step asks again.
      if (r.model === 'claude-busy' && r.turn === 1 && failNext429) {
        failNext429 = false;
        return { status: 429, headers: { 'retry-after': '1' } };
      }
      // A model that starts to answer and then holds its stream open, never finishing.
      if (r.model === 'claude-hold')
        return {
          text: 'Thinking it over...',
          usage: claudeTurn,
          hold: { afterChars: 8, resume: new Promise(() => {}) },
        };
      return readThenAnswer(claudeTurn)(r);
    });
    google = await startGoogleServer(readThenAnswer(geminiTurn));
    openai = await startOpenAiServer();
    openai.script('gpt-4.1', (r) => {
      const results = r.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
      return r.turn === 1
        ? { usage: gptTurn, toolCalls: [{ name: 'fs__read_text_file', arguments: { path: notes } }] }
        : { usage: gptTurn, content: `The notes say: ${results[0]}` };
    });
    const at = (provider: string, model: string, baseUrl: string, apiKeyEnv: string) => ({
      provider,
      model,
      baseUrl,
      apiKeyEnv,
    });
    Object.assign(
      config.worker,
      ConfigSchema.parse({
        worker: {
          models: {
            claude: at('anthropic', 'claude-test', anthropic.baseUrl, 'TEST_ANTHROPIC_KEY'),
            'claude-busy': at('anthropic', 'claude-busy', anthropic.baseUrl, 'TEST_ANTHROPIC_KEY'),
            'claude-hold': at('anthropic', 'claude-hold', anthropic.baseUrl, 'TEST_ANTHROPIC_KEY'),
            gemini: at('google', 'gemini-test', google.baseUrl, 'TEST_GOOGLE_KEY'),
            gpt: at('openai', 'gpt-4.1', openai.baseUrl, 'TEST_OPENAI_KEY'),
          },
          mcpServers: { fs: { command: process.execPath, args: [filesystemServer, dir] } },
        },
      }).worker,
    );
  });
  afterAll(async () => {
    await Promise.all([anthropic?.close(), google?.close(), openai?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const worker = workerForSuite({
    config,
    env: { TEST_ANTHROPIC_KEY: 'sk-ant-test', TEST_GOOGLE_KEY: 'g-test', TEST_OPENAI_KEY: 'sk-openai-test' },
  });
  const runAgent = (name: string, model: string) =>
    startRun(
      {
        name,
        lease: { ttlMs: 10_000 },
        budget: { maxTokens: 100_000, maxUsd: 1 },
        tasks: [
          {
            key: 'read',
            executor: { kind: 'agent', model, prompt: 'What do the notes say?', tools: ['fs__read_text_file'] },
          },
        ],
      },
      worker.taskQueue,
    );

  it('Anthropic Messages: streamed tool_use, cache read and write tokens priced at their own rates', async () => {
    const handle = await runAgent('provider-anthropic', 'claude');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ content: `The notes say: ${NOTES}` });
    const mine = anthropic.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(mine.map((r) => [r.path, r.model, r.apiKey, r.stream, r.tools])).toEqual([
      ['/v1/messages', 'claude-test', 'sk-ant-test', true, ['fs__read_text_file']],
      ['/v1/messages', 'claude-test', 'sk-ant-test', true, ['fs__read_text_file']],
    ]);
    expect(mine[1].toolResults).toEqual([NOTES]);
    expect(result.tasks[0].usage).toEqual({ inputTokens: 200, outputTokens: 40, cacheTokens: 2_400, costUsd: 0.0033 });
    expect(result.budget.used).toMatchObject({ tokens: 2_640, usd: 0.0033 });
  });

  it('OpenAI chat completions, streamed with stream_options.include_usage: cached tokens at the cache rate', async () => {
    const handle = await runAgent('provider-openai', 'gpt');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ content: `The notes say: ${NOTES}` });
    const mine = openai.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(mine.map((r) => [r.path, r.model, r.authorization, r.stream, r.includeUsage])).toEqual([
      ['/v1/chat/completions', 'gpt-4.1', 'Bearer sk-openai-test', true, true],
      ['/v1/chat/completions', 'gpt-4.1', 'Bearer sk-openai-test', true, true],
    ]);
    expect(result.tasks[0].usage).toEqual({ inputTokens: 2_000, outputTokens: 600, cacheTokens: 400, costUsd: 0.0092 });
    expect(result.budget.used).toMatchObject({ tokens: 3_000, usd: 0.0092 });
  });

  it('Google streamGenerateContent?alt=sse: a function call, cached and thinking tokens', async () => {
    const handle = await runAgent('provider-google', 'gemini');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ content: `The notes say: ${NOTES}` });
    const mine = google.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(mine.map((r) => [r.path, r.apiKey, r.tools])).toEqual([
      ['/v1beta/models/gemini-test:streamGenerateContent?alt=sse', 'g-test', ['fs__read_text_file']],
      ['/v1beta/models/gemini-test:streamGenerateContent?alt=sse', 'g-test', ['fs__read_text_file']],
    ]);
    expect(mine[1].toolResults).toEqual([NOTES]);
    expect(result.tasks[0].usage).toEqual({ inputTokens: 800, outputTokens: 160, cacheTokens: 800, costUsd: 0.00164 });
    expect(result.budget.used).toMatchObject({ tokens: 1_760, usd: 0.00164 });
  });

  it('a 429 with Retry-After, then an answer: one step in the journal, one charge', async () => {
    const handle = await runAgent('provider-busy', 'claude-busy');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const mine = anthropic.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    // Turn 1 asked twice (429, then 200), with the same idempotency key: the same step.
    expect(mine.map((r) => [r.turn, r.status, r.idempotencyKey])).toEqual([
      [1, 429, `${handle.workflowId}/read/agent/1`],
      [1, 200, `${handle.workflowId}/read/agent/1`],
      [2, 200, `${handle.workflowId}/read/agent/2`],
    ]);
    // It waited what Retry-After asked (1 s) before asking again.
    expect(mine[1].at - mine[0].at).toBeGreaterThanOrEqual(1_000);
    const { events } = await handle.events({ limit: 1000 });
    expect(events.filter((e) => e.type === 'agent:turn').map((e) => e.turn)).toEqual([1, 2]);
    // Two turns charged, not three.
    expect(result.budget.used).toMatchObject({ tokens: 2_640, usd: 0.0033 });
  });

  const holding = (name: string, extra: Record<string, unknown>) =>
    startRun(
      {
        name,
        lease: { ttlMs: 10_000 },
        budget: { maxTokens: 100_000, maxUsd: 1 },
        awaitAdjudication: false,
        tasks: [
          {
            key: 'think',
            retry: { maxAttempts: 1 },
            executor: { kind: 'agent', model: 'claude-hold', prompt: 'Think', maxTokens: 1_000, ...extra },
          },
        ],
      },
      worker.taskQueue,
    );

  it('a call interrupted mid-stream is charged its reservation, and the budget says its usage is unknown', async () => {
    const handle = await holding('provider-interrupt', {});
    const request = await waitFor('the held stream', () =>
      anthropic.requests.find((r) => r.idempotencyKey === `${handle.workflowId}/think/agent/1` && r.status === 200),
    );
    const [claim] = await handle.activeClaims();
    expect(await handle.interrupt({ key: 'think', fencingToken: claim.fencingToken, actor: 'alice' })).toMatchObject({
      ok: true,
    });
    const result = await handle.result();
    await waitFor('the stream closed', () => request.aborted);
    expect(result.adjudications).toMatchObject([{ key: 'think', code: 'TEAM_TASK_HUMAN_INTERRUPTED' }]);
    expect(result.budget).toMatchObject({ used: { tokens: 1_000, usd: 0.015 }, usageUnknown: true });
  });

  it('a call timed out mid-stream (turnTimeoutMs) is charged its reservation, usage unknown', async () => {
    const handle = await holding('provider-timeout', { turnTimeoutMs: 1_000 });
    const result = await handle.result();
    expect(result.tasks[0].lastError).toContain('timed out after 1000 ms');
    expect(result.budget).toMatchObject({ used: { tokens: 1_000, usd: 0.015 }, usageUnknown: true });
  });
});
