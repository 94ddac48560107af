import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { TeamRunHandle } from '../../src/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { startRun, testConfig, waitFor } from '../helpers/env';
import { hostPidsWithEnv } from '../helpers/processes';
import { workerForTest, type OnTestFinished } from '../helpers/scenario';
import { alive, eventsOf, tempDir } from './takeover-helpers';

/**
 * Stall detection (docs/leases.md#stalls): an attempt whose worker heartbeats (its lease holds) but whose work makes
 * no step for the task's stallAfterMs is stopped on its worker and adjudicated TEAM_TASK_STALLED, naming its last step.
 */
const STALL_MS = 4_000;
/** Generous on a loaded machine: the watch looks every second, then the stop, the settlement and the query. */
const SLACK_MS = 30_000;
const KEY_ENV = 'TEAMRUN_TEST_STALL_KEY';
const standins = path.resolve(__dirname, '../helpers/agent-clis');

async function started(plan: TeamPlanInput, taskQueue: string, finished: OnTestFinished): Promise<TeamRunHandle> {
  const handle = await startRun(plan, taskQueue);
  finished(async () => {
    const { status } = await handle.describe();
    if (status.name === 'RUNNING') await handle.terminate('test finished');
  });
  return handle;
}

/**
 * Waits for the task's adjudication; answers it with how long after the claim the run asked for it (workflow times),
 * and prints that figure.
 */
async function stalledAdjudication(handle: TeamRunHandle, key: string, what: string) {
  const record = await waitFor(
    `an adjudication of "${key}"`,
    async () => (await handle.query(msg.adjudicationsQuery)).find((a) => a.key === key),
    STALL_MS + 60_000,
  );
  const [claimed] = (await eventsOf(handle, 'task:claimed')).filter((e) => e.key === key);
  const afterClaimMs = record.requestedAt - claimed.at;
  console.log(
    `${what}: ${record.code} ${afterClaimMs} ms after the claim (stallAfterMs ${STALL_MS}): ${record.reason}`,
  );
  return { record, afterClaimMs };
}

describe.concurrent('stall detection: a heartbeating attempt that makes no progress goes to adjudication', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an agent whose model accepts the request and never answers', async ({ expect, onTestFinished }) => {
    // Accepted, then held far past the turn's own timeout as the plan sets it (which is longer than stallAfterMs).
    server.model('stall-held', { delayMs: 600_000, content: 'never' });
    const config = testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } });
    const worker = await workerForTest({ config, env: { [KEY_ENV]: 'sk-stall' } }, onTestFinished);
    const handle = await started(
      {
        name: 'stall-agent',
        // Heartbeated every second all along (a 15 s TTL, so a loaded machine does not lose it): the lease holds, the work
        // does not move.
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        tasks: [
          {
            key: 'think',
            stallAfterMs: STALL_MS,
            executor: { kind: 'agent', model: 'stall-held', prompt: 'Think', tools: [], turnTimeoutMs: 120_000 },
          },
        ],
      },
      worker.taskQueue,
      onTestFinished,
    );
    const { record, afterClaimMs } = await stalledAdjudication(handle, 'think', 'agent, model held');
    expect(record.code).toBe('TEAM_TASK_STALLED');
    expect(record.reason).toMatch(/stallAfterMs \(4000 ms\).*last step: model call 1 started, \d+\.\d s ago/);
    expect(afterClaimMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(afterClaimMs).toBeLessThan(STALL_MS + SLACK_MS);
    // The attempt was stopped: the model call was aborted, not left waiting for its 120 s turn timeout.
    await waitFor(
      'the held model call to be aborted',
      () => server.requests.find((r) => r.model === 'stall-held')?.aborted,
    );
    expect(await eventsOf(handle, 'task:stalled')).toMatchObject([
      { key: 'think', reason: expect.stringContaining('model call 1 started') },
    ]);
    expect(await eventsOf(handle, 'lease:expired')).toEqual([]);
    expect((await handle.query(msg.tasksQuery))[0]).toMatchObject({ status: 'adjudication', attempts: 1 });
  });

  it('a coding-agent CLI that goes silent after its first turn', async ({ expect, onTestFinished }) => {
    const state = tempDir('stall-cli');
    const agentClis = {
      'claude-code': {
        command: path.join(standins, 'claude'),
        allowArgs: [],
        env: { STANDIN_STATE_DIR: state },
        keepWorktrees: false,
      },
    };
    const worker = await workerForTest({ config: testConfig({ agentClis }) }, onTestFinished);
    const handle = await started(
      {
        name: 'stall-cli',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        tasks: [
          { key: 'code', stallAfterMs: STALL_MS, executor: { kind: 'agent-cli', cli: 'claude-code', prompt: 'hang' } },
        ],
      },
      worker.taskQueue,
      onTestFinished,
    );
    // The stand-in's processes as the host numbers them (under the worker's sandbox its pid is its namespace's).
    const mark = `STANDIN_STATE_DIR=${state}`;
    const pids = await waitFor('the CLI to start', () => (hostPidsWithEnv(mark).length ? hostPidsWithEnv(mark) : null));
    const { record, afterClaimMs } = await stalledAdjudication(handle, 'code', 'agent-cli, silent stand-in');
    expect(record.code).toBe('TEAM_TASK_STALLED');
    // The stand-in's last line before it went quiet is the tool result ("user") of its first turn: event 4.
    expect(record.reason).toMatch(/last step: claude-code stream event 4 "user", \d+\.\d s ago/);
    expect(afterClaimMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(afterClaimMs).toBeLessThan(STALL_MS + SLACK_MS);
    await waitFor(`the silent CLI (pids ${pids.join(', ')}) to end`, () => !pids.some(alive));
    expect(await eventsOf(handle, 'lease:expired')).toEqual([]);
  });

  it('a coding-agent CLI that streams an event every 0.3 s for longer than stallAfterMs is not flagged', async ({
    expect,
    onTestFinished,
  }) => {
    const agentClis = {
      'claude-code': { command: path.join(standins, 'claude'), allowArgs: [], env: {}, keepWorktrees: false },
    };
    const worker = await workerForTest({ config: testConfig({ agentClis }) }, onTestFinished);
    const handle = await started(
      {
        name: 'stall-cli-busy',
        awaitAdjudication: false,
        // "spend": 20 turns, 0.3 s apart, then a result: about 6 s of steady events against a 4 s bound.
        tasks: [
          { key: 'code', stallAfterMs: STALL_MS, executor: { kind: 'agent-cli', cli: 'claude-code', prompt: 'spend' } },
        ],
      },
      worker.taskQueue,
      onTestFinished,
    );
    const result = await handle.result();
    const [task] = result.tasks;
    const ranMs = (task.settledAt ?? 0) - (task.startedAt ?? 0);
    console.log(`agent-cli, an event every 0.3 s: ${task.status} after ${ranMs} ms (stallAfterMs ${STALL_MS})`);
    expect(task).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(ranMs).toBeGreaterThan(STALL_MS);
    expect(await eventsOf(handle, 'task:stalled')).toEqual([]);
  });

  it('a shell task that sleeps silently (the plan default), its process ended', async ({ expect, onTestFinished }) => {
    const pidFile = path.join(tempDir('stall-shell'), 'pid');
    const worker = await workerForTest({}, onTestFinished);
    const handle = await started(
      {
        name: 'stall-shell',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        stallAfterMs: STALL_MS,
        tasks: [
          {
            key: 'sleep',
            // The mark its processes are found by from outside: under the worker's sandbox `$!` is its namespace's.
            executor: {
              kind: 'shell',
              command: `sleep 600 & echo $! > "${pidFile}"; wait`,
              env: { SLEEP_PID_FILE: pidFile },
            },
          },
        ],
      },
      worker.taskQueue,
      onTestFinished,
    );
    const mark = `SLEEP_PID_FILE=${pidFile}`;
    const running = () => (existsSync(pidFile) && hostPidsWithEnv(mark).length >= 2 ? hostPidsWithEnv(mark) : null);
    const pids = await waitFor('the sleep to start', running);
    const { record, afterClaimMs } = await stalledAdjudication(handle, 'sleep', 'shell, sleep 600');
    expect(record.code).toBe('TEAM_TASK_STALLED');
    expect(record.reason).toMatch(/no progress since the attempt started \d+\.\d s ago/);
    expect(afterClaimMs).toBeGreaterThanOrEqual(STALL_MS);
    expect(afterClaimMs).toBeLessThan(STALL_MS + SLACK_MS);
    await waitFor(`the silent sleep (pids ${pids.join(', ')}) to end`, () => !pids.some(alive));
    expect(await eventsOf(handle, 'lease:expired')).toEqual([]);
  });

  it('a shell task that prints a line every second for longer than stallAfterMs is not flagged', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const ticks = 10;
    const handle = await started(
      {
        name: 'stall-ticking',
        // A stall would close the run at once (with the task in adjudication) rather than wait for a human.
        awaitAdjudication: false,
        tasks: [
          {
            key: 'tick',
            stallAfterMs: STALL_MS,
            executor: {
              kind: 'shell',
              command: `for i in $(seq ${ticks}); do echo "tick $i"; sleep 1; done; echo '::teamrun-output::"done"'`,
            },
          },
        ],
      },
      worker.taskQueue,
      onTestFinished,
    );
    const result = await handle.result();
    const [task] = result.tasks;
    const ranMs = (task.settledAt ?? 0) - (task.startedAt ?? 0);
    console.log(`shell, a line a second: ${task.status} after ${ranMs} ms (stallAfterMs ${STALL_MS})`);
    expect(task).toMatchObject({ status: 'succeeded', output: 'done', attempts: 1 });
    expect(ranMs).toBeGreaterThan(STALL_MS);
    expect(await eventsOf(handle, 'task:stalled')).toEqual([]);
    expect(result.adjudications).toEqual([]);
  });
});
