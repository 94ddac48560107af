import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { loadPlanFile } from '../../src/plan/load';
import { startOpenAiServer, type OpenAiServer, type RecordedRequest } from '../helpers/openai-server';
import { spawnWorkerProcess, startRun, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const root = path.resolve(__dirname, '../..');
const filesystemServer = path.join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };
const USAGE_TOKENS = 120;
/** Each worker agent's `maxTokens`: what one model call in flight can spend, at most. */
const CALL_MAX = 500;
const PRICES = { 'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 } };
/** What one answered call costs (100 input and 20 output tokens), and one call of CALL_MAX tokens at most. */
const CALL_USD = (100 * 0.15 + 20 * 0.6) / 1e6;
const CALL_MAX_USD = (CALL_MAX * 0.6) / 1e6;

describe("the trial's agent team under maxTokens and maxUsd, its worker killed -9 mid-run", () => {
  let server: OpenAiServer;
  let dir: string;
  beforeAll(async () => {
    server = await startOpenAiServer();
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-agent-team-crash-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second worker takes over from the journals; each lost attempt is charged its journaled usage plus at most one call, and the run succeeds', async ({
    onTestFinished,
  }) => {
    const workerTask = (key: string) => ({
      key,
      executor: {
        kind: 'agent',
        model: 'gpt-4o-mini',
        prompt: `Write ${key}`,
        maxTokens: CALL_MAX,
        tools: ['teamrun__read_inbox', 'teamrun__set_output', 'fs__write_file'],
      },
    });
    // Turn 2 of each worker hangs on the first worker process (killed meanwhile), then answers on the second.
    const hung = new Set<string>();
    server.script('gpt-4o-mini', (r) => {
      const system = r.messages[0]?.role === 'system' ? (r.messages[0].content ?? '') : '';
      if (system.startsWith('You plan'))
        return r.turn === 1
          ? {
              usage,
              toolCalls: [
                {
                  name: 'teamrun__add_tasks',
                  arguments: { tasks: [workerTask('worker-1'), workerTask('worker-2')] },
                },
              ],
            }
          : { usage, content: 'two workers, one part each' };
      if (system.startsWith('You review'))
        return r.turn === 1
          ? {
              usage,
              toolCalls: [{ name: 'teamrun__send_message', arguments: { to: 'worker-1', body: 'cite the contract' } }],
            }
          : { usage, content: 'reviewed' };
      const key = (r.messages[0]?.content ?? '').replace('Write ', '');
      if (r.turn === 1)
        return {
          usage,
          toolCalls: [{ name: 'fs__write_file', arguments: { path: path.join(dir, `${key}.md`), content: key } }],
        };
      if (r.turn === 2 && !hung.has(key)) {
        hung.add(key);
        return { usage, delayMs: 600_000 };
      }
      if (r.turn === 2)
        return { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: { part: key } } }] };
      return { usage, content: 'written' };
    });
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      [
        'worker:',
        '  shutdownGraceMs: 500',
        `  llm: { baseUrl: "${server.baseUrl}", apiKeyEnv: ${KEY_ENV} }`,
        '  mcpServers:',
        `    fs: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(filesystemServer)}, ${JSON.stringify(dir)}] }`,
        `prices: ${JSON.stringify(PRICES)}`,
        '',
      ].join('\n'),
    );
    const queue = uniqueQueue('agent-team-crash');
    const victim = await spawnWorkerProcess({
      taskQueue: queue,
      identity: 'team-victim',
      config,
      env: { [KEY_ENV]: 'sk' },
    });
    onTestFinished(() => void victim.child.kill('SIGKILL'));
    const loaded = loadPlanFile(path.join(root, 'examples/agent-team.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const plan = {
      ...loaded.plan,
      name: 'agent-team-crash',
      lease: { ttlMs: 2_000 },
      budget: { ...loaded.plan.budget, maxTokens: 200_000, maxUsd: 1 },
    };
    const handle = await startRun(plan, queue);
    const ours = () => server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    const of = (key: string) => (r: RecordedRequest) => r.idempotencyKey?.startsWith(`${handle.workflowId}/${key}/`);
    // Both workers are between answered calls, each with its next call in flight; the reviewer has written.
    await waitFor(
      'both workers in their second model call, the review done',
      async () =>
        ours().filter((r) => r.turn === 2 && (of('worker-1')(r) || of('worker-2')(r))).length === 2 &&
        (await handle.tasks()).find((t) => t.key === 'review')?.status === 'succeeded',
      90_000,
    );
    const answeredBeforeKill = ours().filter((r) => r.status === 200).length;
    const journaled = (key: string) => ours().filter((r) => of(key)(r) && r.status === 200).length * USAGE_TOKENS;
    const journaledAtKill = { 'worker-1': journaled('worker-1'), 'worker-2': journaled('worker-2') };
    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivorConfig = testConfig(
      { llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } },
      ConfigSchema.parse({ prices: PRICES }).prices,
    );
    survivorConfig.worker.mcpServers = ConfigSchema.parse({
      worker: { mcpServers: { fs: { command: process.execPath, args: [filesystemServer, dir] } } },
    }).worker.mcpServers;
    survivorConfig.worker.shutdownGraceMs = 500;
    await workerForTest(
      { taskQueue: queue, identity: 'team-survivor', config: survivorConfig, env: { [KEY_ENV]: 'sk' } },
      onTestFinished,
    );

    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.budgetReason).toBeNull();
    expect(result.adjudications).toEqual([]);
    expect(Object.fromEntries(result.tasks.map((t) => [t.key, [t.status, t.attempts]]))).toEqual({
      plan: ['succeeded', 1],
      review: ['succeeded', 1],
      'worker-1': ['succeeded', 2],
      'worker-2': ['succeeded', 2],
    });
    // The MCP filesystem server wrote each worker's file before the crash.
    expect(existsSync(path.join(dir, 'worker-1.md')) && readFileSync(path.join(dir, 'worker-2.md'), 'utf8')).toBe(
      'worker-2',
    );
    const { events } = await handle.events({ limit: 1_000 });
    expect(events.filter((e) => e.type === 'mailbox:sent')).toMatchObject([{ from: 'review', to: 'worker-1' }]);
    // Each lost attempt: charged its journaled usage plus at most one call's maxTokens, and never less.
    const expired = events.filter((e) => e.type === 'lease:expired');
    expect(expired.map((e) => String(e.key)).sort()).toEqual(['worker-1', 'worker-2']);
    for (const e of expired) {
      const key = String(e.key) as 'worker-1' | 'worker-2';
      const charged = (e as unknown as { charged: { tokens: number; usd: number } }).charged;
      const spent = journaledAtKill[key];
      process.stderr.write(`[agent-team-crash] ${key}: journaled ${spent} tokens, charged ${charged.tokens}\n`);
      expect(charged.tokens).toBeGreaterThanOrEqual(spent);
      expect(charged.tokens).toBeLessThanOrEqual(spent + CALL_MAX);
      // In dollars too: the journaled calls' cost plus one call's maxTokens at the model's dearest rate.
      const spentUsd = (spent / USAGE_TOKENS) * CALL_USD;
      expect(charged.usd).toBeGreaterThanOrEqual(spentUsd - 1e-9);
      expect(charged.usd).toBeLessThanOrEqual(spentUsd + CALL_MAX_USD + 1e-9);
    }
    // Turns answered before the crash were asked once; the calls in flight were asked again.
    for (const key of ['worker-1', 'worker-2']) {
      const turns = ours()
        .filter(of(key))
        .map((r) => [r.turn, r.status]);
      expect(turns).toEqual([
        [1, 200],
        [2, null],
        [2, 200],
        [3, 200],
      ]);
    }
    for (const key of ['plan', 'review'])
      expect(
        ours()
          .filter(of(key))
          .map((r) => r.turn),
      ).toEqual([1, 2]);
    // The budget stays an upper bound of the real spend, and overcharges it by at most the two calls in flight.
    const realTokens = ours().filter((r) => r.status === 200).length * USAGE_TOKENS;
    process.stderr.write(
      `[agent-team-crash] answered ${answeredBeforeKill} calls before the kill; real ${realTokens} tokens, ` +
        `charged ${result.budget.used.tokens} tokens, $${result.budget.used.usd}\n`,
    );
    expect(result.budget).toMatchObject({ stopped: false, usageUnknown: false });
    expect(result.budget.used.tokens).toBeGreaterThanOrEqual(realTokens);
    expect(result.budget.used.tokens).toBeLessThanOrEqual(realTokens + 2 * CALL_MAX);
    const realUsd = (realTokens / USAGE_TOKENS) * CALL_USD;
    expect(result.budget.used.usd).toBeGreaterThanOrEqual(realUsd - 1e-9);
    expect(result.budget.used.usd).toBeLessThanOrEqual(realUsd + 2 * CALL_MAX_USD + 1e-9);
  });
});
