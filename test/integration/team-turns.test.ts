import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import { startOpenAiServer, type OpenAiServer, type RecordedRequest } from '../helpers/openai-server';
import { startRun, testClient, testConfig } from '../helpers/env';
import { workerForTest, type OnTestFinished } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };
const quiet = { awaitAdjudication: false, retry: { maxAttempts: 1 }, lease: { ttlMs: 20_000 } };

/** An agent task that wants `calls` model calls: a tool call each turn, then its answer on the last. */
const agentTask = (key: string, model: string) => ({
  key,
  executor: { kind: 'agent', model, prompt: 'Go', maxTokens: 100, tools: ['teamrun__set_output'] },
});

/** The model's script: a tool call on every turn before `calls`, the final answer on turn `calls`. */
const wants = (calls: number) => (r: RecordedRequest) =>
  r.turn < calls
    ? { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: r.turn } }] }
    : { usage, content: 'done' };

async function handleOf(workflowId: string): Promise<TeamRunHandle> {
  return (await testClient()).workflow.getHandle(workflowId) as unknown as TeamRunHandle;
}

describe('budget.maxTurns: agent model calls admitted by the run, and across a tree of teams', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const worker = (onTestFinished: OnTestFinished) =>
    workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk' } },
      onTestFinished,
    );
  /** The model calls a run's tree made: the agents' idempotency keys start with the run's workflow id. */
  const callsOf = (workflowId: string) =>
    server.requests.filter((r) => r.idempotencyKey?.startsWith(`${workflowId}/`) && !r.aborted);

  it('maxTurns 3 and an agent wanting 5 calls: the model gets 3, the 4th is refused max-turns before it is made', async ({
    onTestFinished,
  }) => {
    server.script('turns-five', wants(5));
    const w = await worker(onTestFinished);
    const handle = await startRun(
      { name: 'turns-run', ...quiet, budget: { maxTurns: 3 }, tasks: [agentTask('think', 'turns-five')] },
      w.taskQueue,
    );
    const result = await handle.result();
    const sent = callsOf(handle.workflowId);
    expect(sent.map((r) => r.turn)).toEqual([1, 2, 3]);
    expect(result.adjudications).toMatchObject([{ key: 'think', code: 'TEAM_TASK_BUDGET_EXCEEDED' }]);
    expect(result.adjudications[0].reason).toContain('max-turns');
    expect(result.budget.used.turns).toBe(3);
    expect(result.budget.remaining.turns).toBe(0);
    expect(result.budget.limits.maxTurns).toBe(3);
    // The budget query says the same as the result.
    expect((await handle.budget()).used.turns).toBe(3);
  });

  it('tree.maxTurns 4 at the root, two team tasks each with an agent child wanting 3 calls: at most 4 calls in all', async ({
    onTestFinished,
  }) => {
    server.script('turns-three', wants(3));
    const w = await worker(onTestFinished);
    const child = (key: string) => ({
      key,
      executor: {
        kind: 'team',
        plan: { name: `turns-tree-${key}`, ...quiet, tasks: [agentTask('think', 'turns-three')] },
      },
    });
    const handle = await startRun(
      {
        name: 'turns-tree',
        teammates: 2,
        ...quiet,
        budget: { tree: { maxTurns: 4 } },
        tasks: [child('A'), child('B')],
      },
      w.taskQueue,
    );
    const root = await handle.result();
    const sent = callsOf(handle.workflowId);
    const children = await Promise.all(
      ['A', 'B'].map(async (key) => teamRunResult(await handleOf(`${handle.workflowId}/${key}#1`))),
    );
    process.stderr.write(
      `[turns-tree] calls: ${sent.length}; children's tree turns: ` +
        `${children.map((c) => `${c.budget.limits.tree?.maxTurns}/${c.budget.tree?.turns}`).join(', ')}\n`,
    );
    // Both children wanted 6 calls together: the tree let at most 4 through.
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.length).toBeLessThanOrEqual(4);
    // Each child's carve was a share of the root's 4, and together they never pass it.
    const carves = children.map((c) => c.budget.limits.tree?.maxTurns ?? NaN);
    expect(carves.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(4);
    // Each child's tree reported what it called, and the root's view shows the tree's turns: every call, charged once.
    for (const [i, c] of children.entries())
      expect(c.budget.tree?.turns).toBe(callsOf(`${handle.workflowId}/${'AB'[i]}#1`).length);
    expect(root.budget.tree).toMatchObject({ turns: sent.length, turnsHeldByChildren: 0 });
    expect(root.budget.used.turns).toBe(0);
    // At least one child was refused a call it wanted, naming max-turns.
    const refused = children.flatMap((c) => c.adjudications).filter((a) => a.code === 'TEAM_TASK_BUDGET_EXCEEDED');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const a of refused) expect(a.reason).toContain('max-turns');
  });
});
