import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { journalId } from '../../src/agent/types';
import { startOpenAiServer } from '../helpers/openai-server';
import { startRun, testConfig, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };
type Events = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>;

/** The names of the updates a workflow's history accepted, in order. */
const updatesOf = (events: Events) =>
  events.flatMap((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? []);

describe('mail reaches a working agent through its journal (mail hints)', () => {
  it("a turn without mail costs the run nothing; mail sent mid-work joins the next call once, and read_inbox doesn't repeat it", async ({
    onTestFinished,
  }) => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    let release!: () => void;
    const sent = new Promise<void>((resolve) => (release = resolve));
    // Six model calls; the third is held until the test's message went out; the fifth reads the inbox with the tool.
    server.script('mail-hint', (r) =>
      r.turn === 6
        ? { usage, content: 'done' }
        : {
            usage,
            ...(r.turn === 3 ? { until: sent } : {}),
            toolCalls: [
              r.turn === 5
                ? { name: 'teamrun__read_inbox', arguments: {} }
                : { name: 'teamrun__set_output', arguments: { output: r.turn } },
            ],
          },
    );
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk-mail' } },
      onTestFinished,
    );
    const handle = await startRun(
      {
        name: 'agent-mail-hint',
        lease: { ttlMs: 30_000 },
        tasks: [
          {
            key: 'writer',
            executor: { kind: 'agent', model: 'mail-hint', prompt: 'Write', tools: ['teamrun__*'], maxTurns: 10 },
          },
        ],
      },
      worker.taskQueue,
    );
    const mine = () => server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    await waitFor('model call 3', () => mine().some((r) => r.turn === 3), 60_000);
    expect(await handle.sendMessage({ from: 'coordinator', to: 'writer', body: 'use the new outline' })).toMatchObject({
      ok: true,
    });
    // The run's word reaches the journal before call 3 is let go, so call 4 is the one it joins.
    const journal = handle.client.getHandle(journalId(handle.workflowId, 'writer'));
    await waitFor(
      'the mail hint',
      async () => ((await journal.fetchHistory()).events ?? []).some((e) => e.workflowExecutionSignaledEventAttributes),
      60_000,
    );
    release();
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const calls = mine();
    expect(calls.map((r) => r.turn)).toEqual([1, 2, 3, 4, 5, 6]);
    const mail = (turn: number) =>
      calls[turn - 1].messages.filter((m) => m.role === 'user' && m.content?.includes('use the new outline'));
    expect(mail(3)).toHaveLength(0);
    expect(mail(4)).toHaveLength(1);
    expect(mail(6)).toHaveLength(1);
    // teamrun__read_inbox (turn 5) hands nothing the conversation already holds.
    const readAnswer = calls[5].messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
    expect(JSON.parse(readAnswer)).toMatchObject({ messages: [] });
    // Six turns, two inbox peeks (at the attempt's first call, after the run's word) and the tool's read: not one a
    // turn (a retried attempt would peek once more, hence at most).
    const updates = updatesOf((await handle.fetchHistory()).events ?? []);
    expect(updates.filter((name) => name === 'readInbox').length).toBeLessThanOrEqual(3);
  });
});
