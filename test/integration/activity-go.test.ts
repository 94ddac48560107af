import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import { goTestWorker, spawnGoWorker } from '../helpers/foreign-workers';
import { historyAttempts } from '../helpers/history';
import { runForTest, workerForTest } from '../helpers/scenario';
import { expectNotScheduled } from '../helpers/standalone';
import { taskOf, tempDir } from './leases-helpers';

/** A lease this test does not mean to lose: 15 s, so a loaded machine's late heartbeat does not (at a 3 s lease's pace). */
const LEASE = { ttlMs: 15_000, heartbeatEveryMs: 1_500 };

function marker(dir: string, name: string, what = `marker ${name}`): Promise<Record<string, unknown>> {
  const file = path.join(dir, name);
  return waitFor(
    what,
    () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : null),
    60_000,
  );
}

describe('a Go activity (go.temporal.io/sdk, teamrunactivity.Wrap, its own worker and queue) as a task of a team run', () => {
  beforeAll(() => {
    goTestWorker();
  }, 600_000);

  it('runs as the attempt: its output feeds a shell task, its usage is charged, and an interrupt reaches its context', async () => {
    const dir = tempDir();
    const goQueue = uniqueQueue('go-agents');
    await spawnGoWorker(goQueue, 'go-worker', dir);
    const worker = await workerForTest({ taskQueue: uniqueQueue('activity-go-teamrun') });
    const handle = await runForTest(
      {
        name: 'activity-go',
        lease: LEASE,
        budget: { maxUsd: 1 },
        activityQueues: [goQueue],
        tasks: [
          {
            key: 'research',
            executor: { kind: 'activity', activityType: 'go_research', taskQueue: goQueue, input: { topic: 'leases' } },
          },
          {
            key: 'publish',
            dependsOn: ['research'],
            executor: { kind: 'shell', command: 'echo "::teamrun-output::{\\"from\\":$TEAMRUN_INPUTS}"' },
          },
          {
            key: 'draft',
            dependsOn: ['publish'],
            executor: { kind: 'activity', activityType: 'go_wait_for_cancel', taskQueue: goQueue },
          },
        ],
      },
      worker,
    );

    expect(await marker(dir, 'draft-1.started')).toMatchObject({ fencingToken: 1 });
    const research = { summary: 'go notes on leases', fencingToken: 1, leaseId: `${handle.workflowId}/research/1` };
    expect(await taskOf(handle, 'research')).toMatchObject({
      status: 'succeeded',
      output: research,
      usage: { inputTokens: 700, outputTokens: 100, cacheTokens: 0, costUsd: 0.0021 },
    });
    expect(await taskOf(handle, 'publish')).toMatchObject({ status: 'succeeded', output: { from: { research } } });

    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'draft', fencingToken: 1, requestId: 'take-go-draft', actor: 'ops' }],
    });
    expect(await marker(dir, 'draft-1.cancelled', 'the Go activity to see the cancellation')).toEqual({
      fencingToken: 1,
      error: 'context canceled',
    });
    await waitFor(
      'the run to await adjudication',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect(await handle.query(msg.adjudicationsQuery)).toEqual([
      expect.objectContaining({ key: 'draft', code: 'TEAM_TASK_HUMAN_INTERRUPTED', fencingToken: 1, decision: null }),
    ]);
    expect((await handle.query(msg.budgetQuery)).used).toMatchObject({ tokens: 800, usd: 0.0021 });
    const attempts = await historyAttempts(handle);
    expect(
      attempts
        .filter((a) => a.activityType !== 'runTask')
        .map((a) => [a.activityId, a.activityType, a.outcome, a.startedBy]),
    ).toEqual([
      ['research#1', 'go_research', 'completed', 'go-worker'],
      ['draft#1', 'go_wait_for_cancel', 'cancelled', 'go-worker'],
    ]);
  });

  it('refuses the activity when a client starts it on its own (no workflow scheduled it), before it runs', async () => {
    const dir = tempDir();
    const goQueue = uniqueQueue('go-standalone');
    await spawnGoWorker(goQueue, 'go-standalone', dir);
    await expectNotScheduled('go_research', goQueue);
  });
});
