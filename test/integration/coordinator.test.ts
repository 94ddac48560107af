import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamRunHandle } from '../../src/client';
import { loadPlanFile } from '../../src/plan/load';
import type { RunResult } from '../../src/contract';
import { startRun, temporalAddress, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import {
  startOpenAiServer,
  toolExchanges,
  type OpenAiServer,
  type RecordedRequest,
  type Reply,
} from '../helpers/openai-server';
import { eventsOf, workerForTest, type OnTestFinished } from '../helpers/scenario';

const root = path.resolve(__dirname, '..', '..');
const cliMain = path.join(root, 'dist/main.js');
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
const usage = { promptTokens: 100, completionTokens: 20 };

/** A run in these states has not ended yet. */
const OPEN_STATES = ['running', 'awaiting_adjudication'];

interface Event {
  type: string;
  key?: string;
}
interface Status {
  state: string;
  cursor: string;
  changed: boolean;
  pendingAdjudications: Array<{ key: string }>;
}

/**
 * The coordinator's model, as the example's instructions ask: every call it makes is read off the answers
 * it already got (the run id of start_run, the cursors of read_events and run_status), as a model would.
 */
function coordinator(request: RecordedRequest): Reply {
  const call = (name: string, args: Record<string, unknown>): Reply => ({
    usage,
    toolCalls: [{ name, arguments: args }],
  });
  const done = toolExchanges(request);
  const last = done.at(-1);
  if (!last) {
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    return call('control__start_run', { plan: JSON.parse(prompt.slice(prompt.indexOf('{'))) as unknown });
  }
  if (last.name === 'teamrun__set_output') return { usage, content: 'done' };
  const { runId } = JSON.parse(done[0].content!) as { runId: string };
  if (last.content?.startsWith('error:'))
    return call('teamrun__set_output', { output: { runId, error: last.content } });

  const answers = <T>(name: string) =>
    done.filter((d) => d.name === `control__${name}`).map((d) => JSON.parse(d.content!) as T);
  const reads = answers<{ events: Event[]; nextCursor: string }>('read_events');
  const status = answers<Status>('run_status').at(-1);
  const decided = answers('adjudicate').length > 0;
  const wait = (waitMs: number) =>
    call('control__run_status', { runId, waitMs, ...(status && { cursor: status.cursor }) });

  if (status && !OPEN_STATES.includes(status.state))
    return call('teamrun__set_output', {
      output: { runId, state: status.state, decisions: decided ? [{ key: 'build', decision: 'retry' }] : [] },
    });
  if (decided) return wait(30_000);
  if (answers('interrupt_task').length > 0) {
    if (!status?.pendingAdjudications.some((a) => a.key === 'build')) return wait(30_000);
    return call('control__adjudicate', {
      runId,
      key: 'build',
      decision: 'retry',
      decisionId: 'build-retry-1',
      reason: 'interrupted while hanging; one retry',
    });
  }
  const claimed = reads.flatMap((r) => r.events).some((e) => e.type === 'task:claimed' && e.key === 'build');
  if (!claimed) {
    if (last.name !== 'control__read_events')
      return call('control__read_events', {
        runId,
        limit: 10,
        ...(reads.length && { cursor: reads.at(-1)!.nextCursor }),
      });
    return wait(30_000);
  }
  // Claimed: one more (short) wait; a run that did not move meanwhile has a hanging build.
  if (last.name !== 'control__run_status' || status?.changed !== false) return wait(2_000);
  return call('control__interrupt_task', { runId, key: 'build', reason: 'build hangs: no progress after a wait' });
}

/** A worker whose agents reach this queue's control plane as `control__*`, acting as `actor`. */
async function coordinatorWorker(server: OpenAiServer, actor: string, finished: OnTestFinished) {
  const taskQueue = uniqueQueue('coord');
  const control = {
    command: process.execPath,
    args: [cliMain, 'mcp', '--address', temporalAddress(), '--task-queue', taskQueue, '--actor', actor],
    // As examples/coordinator.yaml says: the team it starts is linked to its attempt, and ends with it.
    attemptAccess: true,
  };
  return workerForTest(
    {
      taskQueue,
      config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV }, mcpServers: { control } }),
      env: { [KEY_ENV]: 'sk-agent' },
    },
    finished,
  );
}

async function runExample(actor: string, finished: OnTestFinished) {
  const server = await startOpenAiServer();
  finished(() => server.close());
  server.script('gpt-4o-mini', coordinator);
  const worker = await coordinatorWorker(server, actor, finished);
  const loaded = loadPlanFile(path.join(root, 'examples/coordinator.yaml'));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
  const result = await (await startRun(loaded.plan, worker.taskQueue)).result();
  const output = result.tasks.find((t) => t.key === 'coordinate')?.output as Record<string, unknown> | undefined;
  const inner = teamRunHandle(await testClient(), String(output?.runId));
  return { server, result, output, inner };
}

describe('examples/coordinator.yaml', () => {
  it('a coordinator agent starts a team through teamrun mcp, interrupts its hanging task and has it retried', async ({
    onTestFinished,
  }) => {
    const { server, result, output, inner } = await runExample('coordinator-bot', onTestFinished);
    expect(result.status).toBe('succeeded');
    // The worker offered the control plane's tools under the server's name; the agent used them in this order.
    expect(server.requests[0].tools).toEqual(
      expect.arrayContaining(['control__start_run', 'control__read_events', 'control__adjudicate']),
    );
    const calls = toolExchanges(server.requests.at(-1)!).map((e) => e.name.replace(/^control__/, ''));
    expect([...new Set(calls)]).toEqual([
      'start_run',
      'read_events',
      'run_status',
      'interrupt_task',
      'adjudicate',
      'teamrun__set_output',
    ]);
    // The outer task reports what it saw: the inner run's id, its end and the decision it made.
    expect(output).toEqual({
      runId: expect.stringMatching(/^docs-team-/),
      state: 'succeeded',
      decisions: [{ key: 'build', decision: 'retry' }],
    });
    // The inner run ended as the coordinator decided: build interrupted, retried, and done on attempt 2.
    const innerResult: RunResult = await inner.result();
    expect(innerResult.status).toBe('succeeded');
    expect(innerResult.tasks.find((t) => t.key === 'build')).toMatchObject({ status: 'succeeded', attempts: 2 });
    // The actor the inner run recorded is the server's configured one, for the interruption and the decision.
    expect(innerResult.adjudications).toMatchObject([
      {
        key: 'build',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        actor: 'coordinator-bot',
        reason: 'build hangs: no progress after a wait',
        decision: { decision: 'retry', decisionId: 'build-retry-1', actor: 'coordinator-bot' },
      },
    ]);
  });

  it('an actor outside the team governance.operators is refused with the code, and the model sees the tool error', async ({
    onTestFinished,
  }) => {
    const { server, result, output, inner } = await runExample('mallory', onTestFinished);
    onTestFinished(async () => {
      await inner.terminate('test finished').catch(() => undefined);
    });
    expect(result.status).toBe('succeeded');
    expect(output).toMatchObject({
      runId: expect.stringMatching(/^docs-team-/),
      error: expect.stringMatching(
        /^error: forbidden: interruptTask: actor "mallory" is not one of governance\.operators/,
      ),
    });
    // What the model was sent back for its interrupt_task call.
    const seen = toolExchanges(server.requests.at(-1)!).find((e) => e.name === 'control__interrupt_task');
    expect(seen?.content).toMatch(/^error: forbidden: /);
    // The coordinator's end (its output set) ended the run it started: the run's governance refused mallory's
    // abort, Temporal's cancellation then stopped it. Nothing mallory asked for happened: the build held its first
    // attempt only, and nobody decided anything.
    await waitFor('the inner run to be cancelled', async () => (await inner.status()).cancelRequestedAt !== undefined);
    expect(await eventsOf(inner, 'control:rejected')).toContainEqual(expect.objectContaining({ message: 'abortRun' }));
    const tasks = await inner.tasks();
    expect(tasks.find((t) => t.key === 'build')).toMatchObject({ attempts: 1 });
    expect((await inner.adjudications()).every((a) => a.decision === null)).toBe(true);
  });
});
