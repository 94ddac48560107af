import { MockActivityEnvironment } from '@temporalio/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Executor } from '../../src/activities/executors';
import { firstHeartbeatInMs } from '../../src/activities/heartbeat-pace';
import { createActivities } from '../../src/activities/run-task';
import { ConfigSchema } from '../../src/config/config';

/**
 * runTask's first heartbeat, in Temporal's own activity test environment: due one pace after the
 * attempt was scheduled, since the server counts the lease from when it handed the task over,
 * which on a busy worker can be long before the activity function runs.
 */
describe("an attempt's first heartbeat", () => {
  beforeEach(() =>
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] }),
  );
  afterEach(() => vi.useRealTimers());

  /** runTask of a task whose executor runs until released; TTL 20 s, so a pace of 10 s. */
  function attempt(scheduledAgoMs: number) {
    const env = new MockActivityEnvironment({
      activityType: 'runTask',
      activityId: 't1#1',
      heartbeatTimeoutMs: 20_000,
      currentAttemptScheduledTimestampMs: Date.now() - scheduledAgoMs,
      workflowExecution: { workflowId: 'run-1', runId: 'r1' },
    });
    const beats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => beats.push(details));
    let release: () => void = () => undefined;
    const wait: Executor = () => new Promise((resolve) => (release = () => resolve({ output: 'done' })));
    const { runTask } = createActivities({
      config: ConfigSchema.parse({}),
      executors: new Map([['wait', wait]]),
      workerIdentity: 'worker-1',
    });
    const result = env.run(runTask, { holder: 'teammate-1', executor: { kind: 'wait' } });
    return { beats, result, release: () => release() };
  }

  it('comes one pace after the schedule when the function starts at once, and an attempt ended before sends none', async () => {
    const a = attempt(0);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(a.beats).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(a.beats).toHaveLength(1);
    a.release();
    await expect(a.result).resolves.toMatchObject({ output: 'done' });

    const short = attempt(0);
    await vi.advanceTimersByTimeAsync(5_000);
    short.release();
    await short.result;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(short.beats).toHaveLength(0);
  });

  it('goes out at once when the function starts 12 s after the server handed the task over, then one per pace', async () => {
    const late = attempt(12_000);
    await vi.advanceTimersByTimeAsync(0);
    // Paced from the function's start it would go out at 22 s, past the 20 s lease.
    expect(late.beats).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(late.beats).toHaveLength(2);
    late.release();
    await late.result;
  });

  it('is due the rest of the pace after a shorter wait, and never later than one pace from now', () => {
    expect(firstHeartbeatInMs(10_000, 1_000, 4_000)).toBe(7_000);
    expect(firstHeartbeatInMs(10_000, 1_000, 30_000)).toBe(0);
    // A worker clock behind the server's: never more than one pace.
    expect(firstHeartbeatInMs(10_000, 9_000, 4_000)).toBe(10_000);
  });
});
