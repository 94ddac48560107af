import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import {
  TTL_MS,
  attemptsByTask,
  completionsByTask,
  eventsOf,
  heartbeatReached,
  pidRunning,
  recordPids,
  report,
  spawnWorker,
  startLeaseRun,
  survivor,
  taskOf,
  tempDir,
} from './leases-helpers';

/** A shell task whose first attempt hangs (until its worker goes away) and whose later ones finish at once. */
function hangsOnFirstAttempt(dir: string) {
  return {
    kind: 'shell',
    command: `${recordPids(dir)}
if [ "$TEAMRUN_ATTEMPT" = 1 ]; then sleep 60; fi
echo "::teamrun-output::{\\"attempt\\":$TEAMRUN_ATTEMPT}"`,
  };
}

// Each run starts with one worker process alone on its queue (so the first attempt is surely
// its own); an in-process worker joins once that attempt runs, to take over when it is broken.
describe('leases when a worker process dies, stops or runs long (real worker processes)', () => {
  it('re-leases a task whose worker is killed mid-attempt: settled once, attempt 2, a greater token, both identities recorded', async () => {
    const dir = tempDir();
    const queue = uniqueQueue('lease-kill');
    const victim = await spawnWorker(queue, 'kill-victim');
    const handle = await startLeaseRun(
      { name: 'lease-kill', lease: { ttlMs: TTL_MS }, tasks: [{ key: 'build', executor: hangsOnFirstAttempt(dir) }] },
      queue,
    );
    expect(await pidRunning(dir, 'build', 1)).toBe(victim.child.pid);
    await survivor(queue, 'kill-survivor');
    await heartbeatReached(handle, 'build#1');
    expect(await handle.query(msg.activeClaimsQuery)).toEqual([
      expect.objectContaining({
        key: 'build',
        holder: 'teammate-1',
        leaseId: `${handle.workflowId}/build/1`,
        fencingToken: 1,
        attempt: 1,
        activityId: 'build#1',
        interrupted: false,
      }),
    ]);

    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({
      key: 'build',
      status: 'succeeded',
      attempts: 2,
      fencingToken: 2,
      output: { attempt: 2 },
    });
    const attempts = (await attemptsByTask(handle)).get('build')!;
    expect(attempts.map((a) => [a.activityId, a.outcome, a.startedBy])).toEqual([
      ['build#1', 'timed-out', victim.identity],
      ['build#2', 'completed', 'kill-survivor'],
    ]);
    expect(await completionsByTask(handle)).toEqual({ build: 1 });
    expect(await eventsOf(handle, 'task:completed')).toHaveLength(1);

    const first = { holder: 'teammate-1', leaseId: `${handle.workflowId}/build/1`, fencingToken: 1 };
    const expired = await eventsOf(handle, 'lease:expired');
    expect(expired).toEqual([expect.objectContaining({ key: 'build', ...first, workerIdentity: victim.identity })]);
    const changed = await eventsOf(handle, 'lease:changed');
    expect(changed).toEqual([
      expect.objectContaining({
        key: 'build',
        previous: { ...first, workerIdentity: victim.identity },
        next: { holder: 'teammate-1', leaseId: `${handle.workflowId}/build/2`, fencingToken: 2 },
      }),
    ]);

    // The lease runs out TTL after the last heartbeat that reached the server (at most a second before the kill).
    const recoveredMs = attempts[1].startedAt! - killedAt;
    report(`kill -9 -> next attempt started: ${recoveredMs} ms (lease TTL ${TTL_MS} ms)`);
    expect(recoveredMs).toBeGreaterThanOrEqual(TTL_MS - 1_000);
    // Plus the sticky timeout (2.5 s): the killed worker held the run, and its workflow task waits there first; on a
    // loaded machine, seconds more (11.1 s was seen beside a CPU hog). Without the lease the attempt would wait for
    // its own start-to-close timeout (30 days for a shell task without one): the bound only tells the two apart.
    expect(recoveredMs).toBeLessThan(TTL_MS + 30_000);
  });

  it('sends the task of a killed worker to adjudication when onLeaseLost is "adjudicate", and nothing re-runs it', async () => {
    const dir = tempDir();
    const queue = uniqueQueue('lease-adjudicate');
    const victim = await spawnWorker(queue, 'adjudicate-victim');
    const handle = await startLeaseRun(
      {
        name: 'lease-adjudicate',
        lease: { ttlMs: TTL_MS },
        tasks: [{ key: 'migrate', onLeaseLost: 'adjudicate', executor: hangsOnFirstAttempt(dir) }],
      },
      queue,
    );
    expect(await pidRunning(dir, 'migrate', 1)).toBe(victim.child.pid);
    // A healthy worker stands by the whole time: nothing but the adjudication rule keeps it idle.
    await survivor(queue, 'adjudicate-survivor');
    await heartbeatReached(handle, 'migrate#1');
    victim.child.kill('SIGKILL');

    await waitFor(
      'the run to await adjudication',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect(await handle.query(msg.adjudicationsQuery)).toEqual([
      expect.objectContaining({
        key: 'migrate',
        code: 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED',
        holder: 'teammate-1',
        leaseId: `${handle.workflowId}/migrate/1`,
        fencingToken: 1,
        decision: null,
      }),
    ]);
    expect(await taskOf(handle, 'migrate')).toMatchObject({ status: 'adjudication', attempts: 1, fencingToken: 1 });
    expect(await handle.query(msg.activeClaimsQuery)).toEqual([]);
    expect(await eventsOf(handle, 'lease:expired')).toEqual([
      expect.objectContaining({ key: 'migrate', fencingToken: 1, workerIdentity: victim.identity }),
    ]);
    expect(await eventsOf(handle, 'lease:changed')).toEqual([]);

    // A human decides; the run closes, and the history shows the one attempt that was lost and no other.
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'migrate', decision: 'reject', decisionId: 'lost-migrate', actor: 'ops' }],
    });
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect([...(await attemptsByTask(handle)).get('migrate')!].map((a) => [a.activityId, a.outcome])).toEqual([
      ['migrate#1', 'timed-out'],
    ]);
  });

  it('re-leases, without waiting for the TTL and without adjudication, the attempt of a worker shutting down gracefully', async () => {
    const dir = tempDir();
    const queue = uniqueQueue('lease-term');
    const victim = await spawnWorker(queue, 'term-victim');
    const handle = await startLeaseRun(
      { name: 'lease-term', lease: { ttlMs: TTL_MS }, tasks: [{ key: 'build', executor: hangsOnFirstAttempt(dir) }] },
      queue,
    );
    expect(await pidRunning(dir, 'build', 1)).toBe(victim.child.pid);
    await survivor(queue, 'term-survivor');

    const termAt = Date.now();
    victim.child.kill('SIGTERM');
    const exitCode = await victim.exited;
    const exitedAt = Date.now();
    const result = await handle.result();

    expect(exitCode).toBe(0);
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      fencingToken: 2,
      output: { attempt: 2 },
    });
    expect(result.adjudications).toEqual([]);
    const [released, next] = (await attemptsByTask(handle)).get('build')!;
    // The worker told the server before it exited: a failure of its own type, not a heartbeat timeout.
    expect(released).toMatchObject({ activityId: 'build#1', outcome: 'failed', startedBy: victim.identity });
    expect(released.failure?.type).toBe('TeamWorkerShutdown');
    expect(released.closedAt!).toBeLessThanOrEqual(exitedAt);
    expect(next).toMatchObject({ activityId: 'build#2', outcome: 'completed', startedBy: 'term-survivor' });
    expect(await eventsOf(handle, 'lease:released')).toEqual([
      expect.objectContaining({ key: 'build', fencingToken: 1, workerIdentity: victim.identity }),
    ]);
    expect(await eventsOf(handle, 'lease:expired')).toEqual([]);
    expect(await eventsOf(handle, 'lease:changed')).toEqual([
      expect.objectContaining({
        previous: expect.objectContaining({ fencingToken: 1, workerIdentity: victim.identity }),
        next: expect.objectContaining({ fencingToken: 2 }),
      }),
    ]);
    report(
      `SIGTERM -> attempt released at ${released.closedAt! - termAt} ms, worker exited at ${exitedAt - termAt} ms, ` +
        `next attempt started at ${next.startedAt! - termAt} ms (shutdownGraceMs 500, lease TTL ${TTL_MS} ms)`,
    );
  });

  it('never re-leases a long attempt (several TTLs) on a healthy worker', async () => {
    const queue = uniqueQueue('lease-long');
    await spawnWorker(queue, 'long-worker');
    const handle = await startLeaseRun(
      {
        name: 'lease-long',
        lease: { ttlMs: TTL_MS },
        tasks: [{ key: 'long', executor: { kind: 'shell', command: 'sleep 7; echo "::teamrun-output::\\"done\\""' } }],
      },
      queue,
    );
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({ attempts: 1, fencingToken: 1, output: 'done' });
    const [only, ...more] = (await attemptsByTask(handle)).get('long')!;
    expect(more).toEqual([]);
    expect(only.outcome).toBe('completed');
    expect(only.closedAt! - only.startedAt!).toBeGreaterThanOrEqual(3 * TTL_MS);
    expect(
      (await handle.query(msg.eventsQuery, { limit: 10_000 })).events.filter((e) => e.type.startsWith('lease:')),
    ).toEqual([]);
  });
});
