import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { teamrun } from '../cli/teamrun-cli';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { startRun, testConfig, waitFor } from '../helpers/env';
import { workerForTest, type OnTestFinished } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };

/** Turn 1 asks for a tool, turn 2 answers: an agent of two model calls. */
const twoTurns = (model: string, tasks: number) =>
  Array.from({ length: tasks }, (_, i) => ({
    key: `agent-${i}`,
    executor: { kind: 'agent', model, prompt: `Go ${i}`, tools: ['teamrun__set_output'] },
  }));

describe.concurrent("a model provider's outage pauses an agent team instead of failing it", () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const agentWorker = (finished: OnTestFinished) =>
    workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk-agent' } },
      finished,
    );
  const byKey = (key: string) => server.requests.filter((r) => r.idempotencyKey === key);

  it('500s for 10 s: 5 agents all succeed in their first attempt, each answered turn asked once, each failed call retried inside it', async ({
    onTestFinished,
  }) => {
    const model = 'outage-10s';
    // The five first calls are answered together; the outage begins as they are, so every second call meets it.
    let release!: () => void;
    const allFirst = new Promise<void>((resolve) => (release = resolve));
    let firsts = 0;
    server.script(model, (r) => {
      // However slow the machine, each second call meets the outage: one that comes after its 10 s is answered 500 once.
      if (r.turn > 1) {
        const met = byKey(r.idempotencyKey ?? '').some((q) => q.status === 500);
        return met ? { usage, content: 'done' } : { status: 500 };
      }
      if (++firsts === 5) {
        server.outage({ status: 500, forMs: 10_000, model });
        release();
      }
      return { usage, until: allFirst, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: r.turn } }] };
    });
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-outage',
        teammates: 5,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        tasks: twoTurns(model, 5),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    for (const task of result.tasks) {
      expect(task).toMatchObject({ status: 'succeeded', attempts: 1, output: 1 });
      // Charged the two calls answered, not the tries that failed.
      expect(task.usage).toMatchObject({ inputTokens: 200, outputTokens: 40 });
      const turn = (n: number) => byKey(`${handle.workflowId}/${task.key}/agent/${n}`).map((r) => r.status);
      expect(turn(1)).toEqual([200]);
      const second = turn(2);
      expect(second.at(-1)).toBe(200);
      expect(second.filter((s) => s === 200)).toHaveLength(1);
      expect(second.slice(0, -1).length).toBeGreaterThanOrEqual(1);
      expect(second.slice(0, -1).every((s) => s === 500)).toBe(true);
    }
  });

  it('a 429 with Retry-After: 5: the next request comes 5 s later or more, in the same attempt', async ({
    onTestFinished,
  }) => {
    const model = 'rate-limited';
    let calls = 0;
    server.script(model, () =>
      ++calls === 1 ? { status: 429, headers: { 'Retry-After': '5' } } : { usage, content: 'ok' },
    );
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-429',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        tasks: [{ key: 'limited', executor: { kind: 'agent', model, prompt: 'Go' } }],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.tasks[0]).toMatchObject({ status: 'succeeded', attempts: 1, output: { content: 'ok' } });
    const sent = byKey(`${handle.workflowId}/limited/agent/1`);
    expect(sent.map((r) => r.status)).toEqual([429, 200]);
    expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(5_000);
  });

  it('the llm kind follows the same rule: a 503 retried inside the attempt, then adjudication once the policy is spent', async ({
    onTestFinished,
  }) => {
    const model = 'llm-down';
    let calls = 0;
    server.script(model, () => (++calls === 1 ? { status: 503 } : { usage, content: 'answered' }));
    const outage = server.outage({ status: 500, forMs: 600_000, model: 'llm-down-long' });
    onTestFinished(() => outage.end());
    const worker = await agentWorker(onTestFinished);
    const modelRetry = { maxElapsedMs: 2_000, initialIntervalMs: 200, maxIntervalMs: 500 };
    // brief's one 503 is retried within its policy however slow the machine (2 s was spent before its retry at load 36).
    const briefRetry = { ...modelRetry, maxElapsedMs: 60_000 };
    const handle = await startRun(
      {
        name: 'llm-outage',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        awaitAdjudication: false,
        tasks: [
          { key: 'brief', executor: { kind: 'llm', model, prompt: 'Hi', modelRetry: briefRetry } },
          { key: 'long', executor: { kind: 'llm', model: 'llm-down-long', prompt: 'Hi', modelRetry } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('unresolved');
    expect(result.tasks[0]).toMatchObject({ key: 'brief', status: 'succeeded', attempts: 1 });
    expect(server.requests.filter((r) => r.model === model).map((r) => r.status)).toEqual([503, 200]);
    expect(result.tasks[1]).toMatchObject({ key: 'long', status: 'adjudication', attempts: 1 });
    expect(result.adjudications).toEqual([
      expect.objectContaining({ key: 'long', code: 'TEAM_TASK_MODEL_UNAVAILABLE' }),
    ]);
  });

  it('500s past the policy: the task waits in adjudication TEAM_TASK_MODEL_UNAVAILABLE, the run stays open, and adjudicate --retry succeeds once the model is back', async ({
    onTestFinished,
  }) => {
    const model = 'down-long';
    server.script(model, () => ({ usage, content: 'back' }));
    const outage = server.outage({ status: 500, forMs: 600_000, model });
    onTestFinished(() => outage.end());
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-down',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        governance: { operators: ['ops'] },
        tasks: [
          {
            key: 'stuck',
            executor: {
              kind: 'agent',
              model,
              prompt: 'Go',
              modelRetry: { maxElapsedMs: 3_000, initialIntervalMs: 200, maxIntervalMs: 1_000 },
            },
          },
          { key: 'after', dependsOn: ['stuck'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const pending = await waitFor(
      'the task in adjudication',
      async () => (await handle.query(msg.adjudicationsQuery)).find((a) => a.key === 'stuck' && !a.decision),
      90_000,
    );
    expect(pending.code).toBe('TEAM_TASK_MODEL_UNAVAILABLE');
    expect(pending.reason).toContain(server.baseUrl);
    expect(pending.reason).toContain('the last HTTP 500');
    const tries = byKey(`${handle.workflowId}/stuck/agent/1`);
    expect(tries.length).toBeGreaterThanOrEqual(3);
    expect(tries.every((r) => r.status === 500)).toBe(true);
    // Open, waiting for a person: not failed.
    expect((await handle.query(msg.statusQuery)).state).toBe('awaiting_adjudication');
    expect((await handle.describe()).status.name).toBe('RUNNING');

    outage.end();
    const retried = await teamrun(['adjudicate', handle.workflowId, 'stuck', '--retry', '--actor', 'ops']);
    expect(retried).toMatchObject({ code: 0 });
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({ key: 'stuck', status: 'succeeded', output: { content: 'back' } });
    expect(byKey(`${handle.workflowId}/stuck/agent/1`).at(-1)?.status).toBe(200);
  });
});
