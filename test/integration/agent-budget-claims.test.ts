import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { startRun, testConfig } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
/** Prices and usage that leave sub-micro-dollar remainders in the budget (137 x 0.15 + 23 x 0.6 = 34.35 micro-dollars). */
const usage = { promptTokens: 137, completionTokens: 23 };
const PRICES = ConfigSchema.parse({ prices: { 'stall-model': { inputPerMTok: 0.15, outputPerMTok: 0.6 } } }).prices;

describe('agents under maxUsd claim at once', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("the trial's plan (planner adding two workers, a reviewer depending on the planner only): the reviewer is claimed when the planner ends, 10 runs of 10", async ({
    onTestFinished,
  }) => {
    const workerTask = (key: string) => ({
      key,
      executor: { kind: 'agent', model: 'stall-model', prompt: `Write ${key}`, tools: ['teamrun__set_output'] },
    });
    server.script('stall-model', (r) => {
      const first = r.messages[0]?.content ?? '';
      if (first.startsWith('You plan'))
        return r.turn === 1
          ? {
              usage,
              toolCalls: [{ name: 'teamrun__add_tasks', arguments: { tasks: [workerTask('w1'), workerTask('w2')] } }],
            }
          : { usage, content: 'planned' };
      if (first.startsWith('You review')) return { usage, content: 'reviewed' };
      // The workers take their time: the reviewer must not wait for them.
      return r.turn === 1
        ? { usage, delayMs: 3_000, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 1 } }] }
        : { usage, content: 'written' };
    });
    const worker = await workerForTest(
      {
        config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }, PRICES),
        env: { [KEY_ENV]: 'sk' },
      },
      onTestFinished,
    );
    const plan = (n: number) => ({
      name: `stall-${n}`,
      teammates: 3,
      lease: { ttlMs: 20_000 },
      budget: { maxUsd: 1, maxTokens: 200_000 },
      tasks: [
        {
          key: 'plan',
          allowSpawn: true,
          executor: {
            kind: 'agent',
            model: 'stall-model',
            instructions: 'You plan.',
            prompt: 'Split the work',
            tools: ['teamrun__add_tasks'],
          },
        },
        {
          key: 'review',
          dependsOn: ['plan'],
          executor: { kind: 'agent', model: 'stall-model', instructions: 'You review.', prompt: 'Review' },
        },
      ],
    });
    const gaps: number[] = [];
    for (let batch = 0; batch < 2; batch++) {
      const handles = await Promise.all(
        Array.from({ length: 5 }, (_, i) => startRun(plan(batch * 5 + i), worker.taskQueue)),
      );
      for (const handle of handles) {
        const result = await handle.result();
        expect(result.status).toBe('succeeded');
        const { events } = await handle.events({ limit: 1_000 });
        const planDone = events.find((e) => e.type === 'task:completed' && e.key === 'plan')!;
        const reviewClaimed = events.find((e) => e.type === 'task:claimed' && e.key === 'review')!;
        const workerDone = events.find((e) => e.type === 'task:completed' && String(e.key).startsWith('w'))!;
        gaps.push(reviewClaimed.at - planDone.at);
        // Claimed before any worker settled: no teammate's budget had to be freed first.
        expect(reviewClaimed.seq).toBeLessThan(workerDone.seq);
        // Each agent starts with its first call's grant, not a fair share of the dollars.
        expect(reviewClaimed).toMatchObject({ reservation: { tokens: 1_024, usd: 0 } });
        expect(events.filter((e) => e.type === 'run:budget-exhausted')).toEqual([]);
      }
    }
    process.stderr.write(`[stall] review claimed after the plan ended by (ms): ${gaps.join(', ')}\n`);
    expect(gaps).toHaveLength(10);
    for (const gap of gaps) expect(gap).toBeLessThan(1_000);
  }, 300_000);

  it('an agent on a model with no price under maxUsd fails before its first call, naming the prices: key to add', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk' } },
      onTestFinished,
    );
    const handle = await startRun(
      {
        name: 'unpriced-agent',
        retry: { maxAttempts: 3, backoffMs: 0 },
        budget: { maxUsd: 1 },
        tasks: [{ key: 'think', executor: { kind: 'agent', model: 'no-price-model', prompt: 'Think' } }],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(result.tasks[0].lastError).toContain('model "no-price-model" has no price');
    expect(result.tasks[0].lastError).toContain('prices: { "no-price-model"');
    // Nothing was spent on it: the model was never asked.
    expect(server.requests.filter((r) => r.model === 'no-price-model')).toEqual([]);
  });
});
