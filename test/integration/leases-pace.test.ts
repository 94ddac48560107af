import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import type { HeartbeatDetails } from '../../src/activities/interface';
import type { TeamRunHandle } from '../../src/client';
import {
  attemptsByTask,
  eventsOf,
  heartbeatReached,
  pidRunning,
  recordPids,
  spawnWorker,
  startLeaseRun,
  survivor,
  tempDir,
} from './leases-helpers';
import { alive } from '../helpers/processes';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The details of the last heartbeat the server has from a running attempt, as `temporal workflow describe` shows them. */
async function lastHeartbeat(handle: TeamRunHandle, activityId: string): Promise<HeartbeatDetails | undefined> {
  const { raw } = await handle.describe();
  const payload = raw.pendingActivities?.find((a) => a.activityId === activityId)?.heartbeatDetails?.payloads?.[0]
    ?.data;
  return payload ? (JSON.parse(Buffer.from(payload).toString('utf8')) as HeartbeatDetails) : undefined;
}

/** The `attemptRunning` signals the run received, and the results of the `stopAttempts` activities it sent. */
async function stopTraffic(handle: TeamRunHandle) {
  const events = (await handle.fetchHistory()).events ?? [];
  const decode = (data?: Uint8Array | null) => (data ? JSON.parse(Buffer.from(data).toString('utf8')) : undefined);
  const announced: string[] = [];
  const stopsScheduled = new Map<string, string[]>();
  const stopped: Array<{ leaseIds: string[]; stopped: number }> = [];
  for (const e of events) {
    const signal = e.workflowExecutionSignaledEventAttributes;
    if (signal?.signalName === 'attemptRunning') {
      const body = decode(signal.input?.payloads?.[0]?.data) as { attempts: Array<{ key: string }> };
      announced.push(...body.attempts.map((a) => a.key));
    }
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name === 'stopAttempts') {
      stopsScheduled.set(
        String(e.eventId),
        (decode(scheduled.input?.payloads?.[0]?.data) as { leaseIds: string[] }).leaseIds,
      );
    }
    const completed = e.activityTaskCompletedEventAttributes;
    if (completed && stopsScheduled.has(String(completed.scheduledEventId))) {
      stopped.push({
        leaseIds: stopsScheduled.get(String(completed.scheduledEventId))!,
        ...decode(completed.result?.payloads?.[0]?.data),
      });
    }
  }
  return { announced, stopped };
}

describe('leases at the lease pace (real worker processes)', () => {
  it("heartbeats first at heartbeatEveryMs, not at once; a killed worker's long attempt is re-leased after the TTL", async () => {
    const dir = tempDir();
    const queue = uniqueQueue('lease-pace-kill');
    const victim = await spawnWorker(queue, 'pace-victim');
    const lease = { ttlMs: 6_000, heartbeatEveryMs: 2_500 };
    const handle = await startLeaseRun(
      {
        name: 'lease-pace-kill',
        lease,
        tasks: [
          {
            key: 'long',
            executor: {
              kind: 'shell',
              command: `${recordPids(dir)}\nif [ "$TEAMRUN_ATTEMPT" = 1 ]; then sleep 120; fi`,
            },
          },
        ],
      },
      queue,
    );
    expect(await pidRunning(dir, 'long', 1)).toBe(victim.child.pid);
    await survivor(queue, 'pace-survivor');
    await heartbeatReached(handle, 'long#1');
    // The first heartbeat the server got was sent one pace after the attempt was scheduled, never at once. Its
    // `elapsedMs` counts from when the attempt's function began, a little after the schedule (tens of ms here; on a
    // busy worker seconds, which is why the pace counts from the schedule).
    const first = await lastHeartbeat(handle, 'long#1');
    expect(first).toMatchObject({ workerIdentity: 'pace-victim', fencingToken: 1 });
    expect(first!.elapsedMs).toBeGreaterThanOrEqual(lease.heartbeatEveryMs - 1_000);
    expect(first!.elapsedMs).toBeLessThanOrEqual(lease.heartbeatEveryMs + 1_000);
    // And the next ones keep the pace: wait for a later heartbeat, then kill the worker.
    await waitFor(
      'a second heartbeat',
      async () => ((await lastHeartbeat(handle, 'long#1'))?.elapsedMs ?? 0) >= 2 * lease.heartbeatEveryMs,
    );
    victim.child.kill('SIGKILL');

    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks[0]).toMatchObject({ key: 'long', status: 'succeeded', attempts: 2, fencingToken: 2 });
    const attempts = (await attemptsByTask(handle)).get('long')!;
    expect(attempts.map((a) => [a.activityId, a.outcome, a.startedBy])).toEqual([
      ['long#1', 'timed-out', 'pace-victim'],
      ['long#2', 'completed', 'pace-survivor'],
    ]);
    expect(await eventsOf(handle, 'lease:expired')).toEqual([
      expect.objectContaining({ key: 'long', fencingToken: 1, workerIdentity: 'pace-victim' }),
    ]);
  });

  it("reaches a long attempt through its worker's stop queue, and a short one as soon as it announces, without waiting for a heartbeat", async () => {
    const dir = tempDir();
    const queue = uniqueQueue('lease-pace-stop');
    await spawnWorker(queue, 'stop-worker');
    // A heartbeat only every 50 s: an interrupt that waited for one would not land within the waits below.
    const lease = { ttlMs: 60_000, heartbeatEveryMs: 48_000 };
    const holds = (key: string) => ({
      key,
      executor: { kind: 'shell', command: `${recordPids(dir)}\nexec sleep 600` },
    });
    // One teammate: "short" starts once "long" has settled, and is interrupted at once.
    const handle = await startLeaseRun(
      {
        name: 'lease-pace-stop',
        teammates: 1,
        lease,
        awaitAdjudication: false,
        tasks: [holds('long'), holds('short')],
      },
      queue,
    );
    await pidRunning(dir, 'long', 1);
    // The long attempt has announced its stop queue (the worker's attemptRunning signal is in history).
    await waitFor('"long" to announce where it runs', async () =>
      (await stopTraffic(handle)).announced.includes('long'),
    );
    const pidOf = (key: string) => Number(readFileSync(path.join(dir, `${key}-1.pids`), 'utf8').split(' ')[0]);
    const longPid = pidOf('long');
    const token = async (key: string) =>
      (await handle.query(msg.activeClaimsQuery)).find((c) => c.key === key)!.fencingToken;
    expect(
      (
        await handle.executeUpdate(msg.interruptTaskUpdate, {
          args: [{ key: 'long', fencingToken: await token('long'), actor: 'alice' }],
        })
      ).ok,
    ).toBe(true);
    await waitFor("the long attempt's shell to be gone", () => !alive(longPid), 20_000, 20);

    // "short" has most likely not announced yet when it is interrupted: its stop goes out once it does.
    await pidRunning(dir, 'short', 1);
    const shortPid = pidOf('short');
    expect(
      (
        await handle.executeUpdate(msg.interruptTaskUpdate, {
          args: [{ key: 'short', fencingToken: await token('short'), actor: 'alice' }],
        })
      ).ok,
    ).toBe(true);
    await waitFor("the short attempt's shell to be gone", () => !alive(shortPid), 20_000, 20);

    const result = await handle.result();
    expect(result.stats.adjudication).toBe(2);
    const { stopped } = await stopTraffic(handle);
    // Each attempt was stopped on its worker by a stop sent to that worker's own queue.
    expect(stopped.flatMap((s) => (s.stopped > 0 ? s.leaseIds : [])).sort()).toEqual([
      `${handle.workflowId}/long/1`,
      `${handle.workflowId}/short/1`,
    ]);
    const adjudications = await handle.query(msg.adjudicationsQuery);
    expect(adjudications.map((a) => [a.key, a.code]).sort()).toEqual([
      ['long', 'TEAM_TASK_HUMAN_INTERRUPTED'],
      ['short', 'TEAM_TASK_HUMAN_INTERRUPTED'],
    ]);
  });
});
