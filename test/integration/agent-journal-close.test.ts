import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalId } from '../../src/agent/types';
import type { TeamRunHandle } from '../../src/client';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { startRun, testClient, testConfig, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };
/** The bound: a journal closes within a minute of its run. */
const WITHIN_MS = 60_000;

/** An agent whose first turn asks for a tool: its journal is open, with a step in it, when the second call is made. */
const agent = (model: string, extra: Record<string, unknown> = {}) => ({
  key: 'agent',
  executor: { kind: 'agent', model, prompt: 'Go', tools: ['teamrun__set_output'], ...extra },
});

describe("an agent's journal closes when its run does, however it closes", () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const firstTurnThen = (model: string, then: () => object) =>
    server.script(model, (r) =>
      r.turn === 1 ? { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 1 } }] } : then(),
    );
  const journalOf = async (handle: TeamRunHandle) =>
    (await testClient()).workflow.getHandle(journalId(handle.workflowId, 'agent'));
  const secondCall = (handle: TeamRunHandle) =>
    waitFor('the second model call', () =>
      server.requests.some((r) => r.idempotencyKey === `${handle.workflowId}/agent/agent/2`),
    );

  it('a run that failed, one terminated and one closed with the task in adjudication: each journal closed within a minute', async ({
    onTestFinished,
  }) => {
    firstTurnThen('close-failed', () => ({ status: 400 }));
    firstTurnThen('close-terminated', () => ({ usage, delayMs: 120_000 }));
    firstTurnThen('close-adjudicated', () => ({ status: 503 }));
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk' } },
      onTestFinished,
    );
    const lease = { ttlMs: 15_000, heartbeatEveryMs: 2_500 };
    const [failed, terminated, adjudicated] = await Promise.all([
      startRun({ name: 'journal-failed', lease, tasks: [agent('close-failed')] }, worker.taskQueue),
      startRun({ name: 'journal-terminated', lease, tasks: [agent('close-terminated')] }, worker.taskQueue),
      startRun(
        {
          name: 'journal-adjudicated',
          lease,
          awaitAdjudication: false,
          tasks: [agent('close-adjudicated', { modelRetry: { maxElapsedMs: 1_000, initialIntervalMs: 100 } })],
        },
        worker.taskQueue,
      ),
    ]);
    await secondCall(terminated);
    await terminated.terminate('journal test');
    const closed = await Promise.all([
      failed.result().then((r) => r.status),
      adjudicated.result().then((r) => [r.status, r.tasks[0].status]),
    ]);
    expect(closed).toEqual(['failed', ['unresolved', 'adjudication']]);
    for (const handle of [failed, terminated, adjudicated]) {
      const runClosed = (await handle.describe()).closeTime!.getTime();
      const journal = await journalOf(handle);
      // The journal ran, and held the first turn.
      expect((await journal.describe()).type).toBe('agentJournal');
      const journalClosed = await waitFor(
        `the journal of ${handle.workflowId} to close`,
        async () => (await journal.describe()).closeTime,
        WITHIN_MS + 30_000,
        1_000,
      );
      expect((await journal.describe()).status.name).toBe('COMPLETED');
      expect(journalClosed.getTime() - runClosed).toBeLessThanOrEqual(WITHIN_MS);
    }
  });
});
