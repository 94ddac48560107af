import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPlanFile } from '../../src/plan/load';
import { startOpenAiServer, type OpenAiServer, type RecordedRequest } from '../helpers/openai-server';
import { startRun, testClient, testConfig, waitFor } from '../helpers/env';
import { temporal } from '@temporalio/proto';
import { journalId } from '../../src/agent/types';
import { updateCodeOf, workerForTest, type OnTestFinished } from '../helpers/scenario';

const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };

describe.concurrent('the agent executor: a tool-using loop against a local model server', () => {
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
  const sentBy = (model: string) => server.requests.filter((r) => r.model === model);
  const toolMessages = (r: RecordedRequest) => r.messages.filter((m) => m.role === 'tool').map((m) => m.content);

  it('calls tools until the model answers without any; an invented tool and bad arguments go back as tool errors', async ({
    onTestFinished,
  }) => {
    server.script('agent-e2e', (r) =>
      r.turn === 1
        ? {
            usage,
            toolCalls: [
              { name: 'teamrun__set_output', arguments: { output: { summary: 'three files' } } },
              { name: 'fs__delete_everything', arguments: {} },
              { name: 'teamrun__set_output', arguments: '{"output": ' },
            ],
          }
        : { usage, content: 'done' },
    );
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-e2e',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        tasks: [
          {
            key: 'summarize',
            executor: {
              kind: 'agent',
              model: 'agent-e2e',
              instructions: 'You summarize.',
              prompt: 'Summarize the files',
              tools: ['teamrun__set_output'],
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ summary: 'three files' });
    expect(result.tasks[0].usage).toMatchObject({ inputTokens: 200, outputTokens: 40 });
    const sent = sentBy('agent-e2e').filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(sent.map((r) => r.turn)).toEqual([1, 2]);
    expect(sent[0].tools).toEqual(['teamrun__set_output']);
    expect(sent[0].messages).toMatchObject([
      { role: 'system', content: 'You summarize.' },
      { role: 'user', content: 'Summarize the files' },
    ]);
    const [ok, invented, malformed] = toolMessages(sent[1]);
    expect(ok).toBe('output set');
    expect(invented).toContain('no tool "fs__delete_everything"');
    expect(malformed).toContain('the arguments are not JSON');
    const { events } = await handle.events({ limit: 1000 });
    expect(events.filter((e) => e.type === 'agent:turn').map((e) => [e.turn, e.tools])).toEqual([
      [1, ['teamrun__set_output', 'fs__delete_everything', 'teamrun__set_output']],
      [2, []],
    ]);
    expect(events.filter((e) => e.type === 'agent:tool').map((e) => e.ok)).toEqual([true, false, false]);
  });

  it("a step's journal write does not restart the journal's timer: eight steps, one timer in its history", async ({
    onTestFinished,
  }) => {
    server.script('agent-quiet-journal', (r) =>
      r.turn < 8
        ? { usage, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: { turn: r.turn } } }] }
        : { usage, content: 'done' },
    );
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-quiet-journal',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        tasks: [
          {
            key: 'steps',
            executor: {
              kind: 'agent',
              model: 'agent-quiet-journal',
              prompt: 'Count',
              tools: ['teamrun__set_output'],
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ turn: 7 });
    const journal = (await testClient()).workflow.getHandle(journalId(handle.workflowId, 'steps'));
    const events = (await journal.fetchHistory()).events ?? [];
    const { EventType } = temporal.api.enums.v1;
    const count = (type: temporal.api.enums.v1.EventType) => events.filter((e) => e.eventType === type).length;
    // Every step was written (model calls and tool calls alike) ...
    expect(count(EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED)).toBeGreaterThanOrEqual(15);
    // ... and the journal's wait (its run check, every 30 s) started once, not once per write.
    expect(count(EventType.EVENT_TYPE_TIMER_STARTED)).toBeLessThanOrEqual(2);
    expect(count(EventType.EVENT_TYPE_TIMER_CANCELED)).toBeLessThanOrEqual(1);
  });

  it("a long agent's journal continues as new as it grows, and the conversation goes on whole", async ({
    onTestFinished,
  }) => {
    // 150 model calls, each asking for three tool calls: about 600 steps, each a journal write (about 3,000 events in
    // the journal's history against its 2,000-event bound).
    const turns = 150;
    server.script('agent-long-journal', (r) =>
      r.turn < turns
        ? {
            usage,
            toolCalls: [1, 2, 3].map((n) => ({
              name: 'teamrun__set_output',
              arguments: { output: { turn: r.turn, n } },
            })),
          }
        : { usage, content: 'done' },
    );
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-long-journal',
        lease: { ttlMs: 30_000, heartbeatEveryMs: 5_000 },
        tasks: [
          {
            key: 'long',
            executor: {
              kind: 'agent',
              model: 'agent-long-journal',
              prompt: 'Count',
              tools: ['teamrun__set_output'],
              maxTurns: turns,
              maxToolCalls: 1_000,
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0].output).toEqual({ turn: turns - 1, n: 3 });
    // The journal handed over to a fresh history (at least once) while the agent ran ...
    const client = await testClient();
    const id = journalId(handle.workflowId, 'long');
    const runs: string[] = [];
    await waitFor('the journal to list its runs', async () => {
      runs.length = 0;
      for await (const run of client.workflow.list({ query: `WorkflowId = "${id}"` })) runs.push(run.status.name);
      return runs.includes('CONTINUED_AS_NEW');
    });
    // ... and the model's last request still held the whole conversation: the prompt, and per earlier turn its answer
    // and three tool results.
    const sent = sentBy('agent-long-journal').filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(sent).toHaveLength(turns);
    expect(sent.at(-1)!.messages).toHaveLength(1 + (turns - 1) * 4);
  });

  it('a steer joins the next model call and answers which turn that is', async ({ onTestFinished }) => {
    // The first model call answers once the steer and the refusals below were sent: the attempt runs while they
    // are, however slow the machine (it once ended first, and the last refusal found the run closed).
    let asked!: () => void;
    const steered = new Promise<void>((resolve) => (asked = resolve));
    server.script('agent-steer', (r) =>
      r.turn === 1
        ? { usage, until: steered, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 1 } }] }
        : { usage, content: 'steered' },
    );
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-steer',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        tasks: [
          { key: 'write', executor: { kind: 'agent', model: 'agent-steer', prompt: 'Write', tools: ['teamrun__*'] } },
          { key: 'plain', executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    await waitFor('the first model call', () =>
      sentBy('agent-steer').some((r) => r.idempotencyKey?.startsWith(handle.workflowId)),
    );
    expect(await handle.steer({ key: 'write', text: 'Prefer short sentences.', actor: 'alice' })).toEqual({
      ok: true,
      turn: 2,
    });
    expect(await updateCodeOf(handle.steer({ key: 'plain', text: 'hi' }))).toBe('not_an_agent');
    expect(await updateCodeOf(handle.steer({ key: 'wirte', text: 'hi' }))).toBe('not_found');
    expect(await updateCodeOf(handle.steer({ key: 'write', text: 'x'.repeat(9_000) }))).toBe('value_too_large');
    expect(await updateCodeOf(handle.steer({ key: 'write', text: 'hi', fencingToken: 99 }))).toBe('stale_attempt');
    asked();
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const second = sentBy('agent-steer').find((r) => r.turn === 2 && r.idempotencyKey?.startsWith(handle.workflowId));
    expect(second?.messages.at(-1)).toEqual({ role: 'user', content: 'Guidance from alice: Prefer short sentences.' });
  });

  it('an interrupt during a slow model call ends the attempt through its stop queue, the request aborted', async ({
    onTestFinished,
  }) => {
    server.script('agent-slow', () => ({ usage, delayMs: 60_000, content: 'never' }));
    const worker = await agentWorker(onTestFinished);
    const handle = await startRun(
      {
        name: 'agent-interrupt',
        // A heartbeat every 40 s: a stop that waited for one would take tens of seconds, not a few.
        lease: { ttlMs: 60_000 },
        awaitAdjudication: false,
        tasks: [{ key: 'think', executor: { kind: 'agent', model: 'agent-slow', prompt: 'Think hard' } }],
      },
      worker.taskQueue,
    );
    const request = await waitFor('the model call', () =>
      sentBy('agent-slow').find((r) => r.idempotencyKey === `${handle.workflowId}/think/agent/1`),
    );
    // Past the announcement (1 s), a stop reaches the attempt through its worker's own queue.
    await new Promise((r) => setTimeout(r, 1_500));
    const [claim] = await handle.activeClaims();
    const asked = Date.now();
    expect(await handle.interrupt({ key: 'think', fencingToken: claim.fencingToken, actor: 'alice' })).toMatchObject({
      ok: true,
    });
    await waitFor('the request aborted', () => request.aborted, 15_000, 20);
    const abortedInMs = Date.now() - asked;
    const result = await handle.result();
    const settledInMs = (result.tasks[0].settledAt ?? 0) - asked;
    // The stop went through the worker's own stop queue, not a heartbeat's answer (the next is due 40 s after the
    // attempt started). How fast is a figure, printed, not a bound: alone it is well under the documented 1 s; on a
    // loaded 2-core machine a fixed 2 s failed once at 2,072 ms.
    process.stderr.write(`[agent] interrupt: request aborted in ${abortedInMs} ms, settled in ${settledInMs} ms\n`);
    expect(abortedInMs).toBeLessThan(15_000);
    expect(settledInMs).toBeLessThan(15_000);
    expect(result.adjudications).toMatchObject([
      {
        key: 'think',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        // Where the transcript is, for whoever decides: `teamrun logs RUN KEY` prints it.
        result: { journal: `teamrun-agent:${handle.workflowId}:think`, turns: 0 },
      },
    ]);
  });
});

describe('examples/agent-team.yaml', () => {
  it('runs end to end against the local model server: the planner adds two workers, the reviewer messages one', async ({
    onTestFinished,
  }) => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    const worker = (body: string) => ({
      key: body,
      executor: {
        kind: 'agent',
        model: 'gpt-4o-mini',
        prompt: `Write ${body}`,
        tools: ['teamrun__read_inbox', 'teamrun__set_output'],
      },
    });
    // The reviewer's second call comes once its message was sent (the tool's answer is in it).
    let messageSent!: () => void;
    const sent = new Promise<void>((resolve) => (messageSent = resolve));
    onTestFinished(() => messageSent());
    // Who speaks is told by the instructions the example gives each agent.
    server.script('gpt-4o-mini', (r) => {
      const system = r.messages[0]?.role === 'system' ? (r.messages[0].content ?? '') : '';
      if (system.startsWith('You review') && r.turn === 2) messageSent();
      if (system.startsWith('You plan'))
        return r.turn === 1
          ? {
              usage,
              toolCalls: [
                { name: 'teamrun__add_tasks', arguments: { tasks: [worker('worker-1'), worker('worker-2')] } },
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
      // worker-1 answers its first call only once the reviewer's message was sent: it reaches worker-1 while it runs,
      // however slow the machine (a message to a finished task is refused).
      return r.turn === 1
        ? {
            usage,
            ...(r.messages[0].content?.includes('worker-1') ? { until: sent } : { delayMs: 1_000 }),
            toolCalls: [{ name: 'teamrun__set_output', arguments: { output: { part: r.messages[0].content } } }],
          }
        : { usage, content: 'written' };
    });
    const loaded = loadPlanFile(path.join(__dirname, '../../examples/agent-team.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const test = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk-agent' } },
      onTestFinished,
    );
    const handle = await startRun(loaded.plan, test.taskQueue);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(Object.fromEntries(result.tasks.map((t) => [t.key, t.output]))).toEqual({
      plan: { content: 'two workers, one part each' },
      review: { content: 'reviewed' },
      'worker-1': { part: 'Write worker-1' },
      'worker-2': { part: 'Write worker-2' },
    });
    const reviewed = server.requests.find((r) => r.turn === 2 && r.messages[0]?.content?.startsWith('You review'));
    expect(reviewed?.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['{"ok":true,"id":1}']);
    const { events } = await handle.events({ limit: 1000 });
    expect(events.filter((e) => e.type === 'mailbox:sent')).toMatchObject([{ from: 'review', to: 'worker-1' }]);
    expect(events.filter((e) => e.type === 'task:added').length).toBeGreaterThan(0);
  });
});

describe('an agent on a token budget', () => {
  it('never sends the model call the budget cannot cover: adjudication with the reason and the transcript', async ({
    onTestFinished,
  }) => {
    const server = await startOpenAiServer();
    onTestFinished(() => server.close());
    // Each call reserves 100 tokens and uses 120: after two (240 of 300), a third reservation cannot fit.
    server.script('agent-budget', () => ({
      usage,
      toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 1 } }],
    }));
    const worker = await workerForTest(
      { config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }), env: { [KEY_ENV]: 'sk-agent' } },
      onTestFinished,
    );
    const handle = await startRun(
      {
        name: 'agent-budget',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        awaitAdjudication: false,
        budget: { maxTokens: 300 },
        tasks: [
          {
            key: 'spend',
            estimate: { tokens: 100 },
            executor: {
              kind: 'agent',
              model: 'agent-budget',
              prompt: 'Go',
              maxTokens: 100,
              tools: ['teamrun__set_output'],
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    const sent = server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    expect(sent.map((r) => r.turn)).toEqual([1, 2]);
    expect(result.adjudications).toMatchObject([
      {
        key: 'spend',
        code: 'TEAM_TASK_BUDGET_EXCEEDED',
        result: { journal: `teamrun-agent:${handle.workflowId}:spend`, turns: 2 },
      },
    ]);
    expect(result.adjudications[0].reason).toContain('max-tokens');
  });
});
