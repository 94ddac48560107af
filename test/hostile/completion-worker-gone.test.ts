import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIRM_WITHIN_MS } from '../../src/workflows/stop-channel';
import * as msg from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, testClient, testConfig, uniqueQueue, waitFor } from '../helpers/env';
import { allTaskViews, announcedWorker, eventsOf, workerForTest, type OnTestFinished } from '../helpers/scenario';

/**
 * A governed run of one task, `slow`, whose first attempt runs on a worker process that the test then kills with
 * SIGKILL: the result that reaches the run next carries a proof naming that worker's stop queue, where nobody
 * answers any more (as when a worker completes its attempt and dies before the run asks it). The run then goes on
 * on an in-process worker, whose attempts print `real` once the test releases them.
 */
async function resultOfAGoneWorker(name: string, onTestFinished: OnTestFinished) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'completion-gone-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const release = path.join(dir, 'release');
  const held =
    `i=0; while [ ! -f '${release}' ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done; ` +
    `echo '::teamrun-output::"real"'`;
  const taskQueue = uniqueQueue('completion-gone');
  const first = await spawnWorkerProcess({ taskQueue, identity: `${name}-first` });
  onTestFinished(() => void first.child.kill('SIGKILL'));
  const handle = await startRun(
    {
      name,
      governance: { operators: ['ops'] },
      tasks: [{ key: 'slow', executor: { kind: 'shell', command: held } }],
    },
    taskQueue,
  );
  const announced = await announcedWorker(handle);
  first.child.kill('SIGKILL');
  await first.exited;
  // The attempt's result, with a proof in its shape naming the dead worker's queue.
  const client = await testClient();
  const proof = { queue: announced.queue, nonce: 'nonce-of-a-gone-worker-0123456789' };
  await client.activity.complete({ workflowId: handle.workflowId, activityId: 'slow#1' }, { output: 'late', proof });
  const sent = Date.now();
  await workerForTest({ config: testConfig(), taskQueue }, onTestFinished);
  return { handle, queue: announced.queue, sent, release: () => writeFileSync(release, '') };
}

describe('a governed run whose worker is gone when the run asks it to confirm a result', () => {
  it('waits for the confirmation at most its pick-up time, then settles the attempt as a lost lease and leases the task again', async ({
    onTestFinished,
  }) => {
    const { handle, queue, sent, release } = await resultOfAGoneWorker('completion-gone', onTestFinished);
    const [unproven] = await waitFor(
      'the result to be settled as unproven',
      async () => {
        const events = await eventsOf(handle, 'attempt:unproven-result');
        return events.length ? events : null;
      },
      60_000,
    );
    const waited = Date.now() - sent;
    release();
    const result = await handle.result();
    console.info(`[completion-gone] result of a gone worker settled as unproven ${waited} ms after it was sent`);
    expect(unproven).toMatchObject({ key: 'slow', fencingToken: 1, why: `worker queue ${queue} did not confirm it` });
    expect(waited).toBeGreaterThanOrEqual(CONFIRM_WITHIN_MS - 1_000);
    expect(result.status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 2 });
    expect((await eventsOf(handle, 'lease:expired')).map((e) => [e.key, e.fencingToken])).toEqual([['slow', 1]]);
  });

  it('an interrupt while the run asks: the attempt goes to adjudication as any interrupted one, and is not leased again', async ({
    onTestFinished,
  }) => {
    const { handle, release } = await resultOfAGoneWorker('completion-gone-interrupt', onTestFinished);
    onTestFinished(release);
    // The run waits on the confirmation (up to 20 s): the attempt is still the task's.
    await waitFor('the run to ask the gone worker', async () => {
      const history = await handle.fetchHistory();
      return (history.events ?? []).some(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'confirmAttemptRequest',
      );
    });
    const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'slow', fencingToken: 1, actor: 'ops', reason: 'taking over' }],
    });
    expect(verdict).toMatchObject({ ok: true });
    const adjudications = await waitFor('the task in adjudication', async () => {
      const pending = await handle.query(msg.adjudicationsQuery);
      return pending.length ? pending : null;
    });
    expect(adjudications).toMatchObject([{ key: 'slow', code: 'TEAM_TASK_HUMAN_INTERRUPTED', fencingToken: 1 }]);
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'adjudication', attempts: 1 });
    const unproven = await eventsOf(handle, 'attempt:unproven-result');
    expect(unproven.map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, 'the attempt was stopped while its worker was asked'],
    ]);
  });
});
