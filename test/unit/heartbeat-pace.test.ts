import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paceHeartbeats } from '../../src/activities/heartbeat-pace';
import { AttemptStops, createStopActivities } from '../../src/activities/attempt-stops';

describe("an attempt's heartbeats", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends none before the first is due, then one per pace, and none after it stops', () => {
    const beat = vi.fn();
    const beats = paceHeartbeats(beat, 20_000);
    vi.advanceTimersByTime(19_999);
    expect(beat).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(beat).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(600_000 - 20_000);
    // A 10-minute attempt at a 20 s pace (the default for a 30 s TTL).
    expect(beat).toHaveBeenCalledTimes(30);
    beats.stop();
    vi.advanceTimersByTime(100_000);
    expect(beat).toHaveBeenCalledTimes(30);
  });

  it('a short attempt that stops before its first heartbeat never sends one', () => {
    const beat = vi.fn();
    paceHeartbeats(beat, 1_500).stop();
    vi.advanceTimersByTime(10_000);
    expect(beat).not.toHaveBeenCalled();
  });

  it('announces attempts in one signal per run, batched', async () => {
    const signal = vi.fn(async () => undefined);
    const stops = new AttemptStops('q/stop/w1', signal, 50);
    stops.announce('wf-1', 'a', 1);
    stops.announce('wf-1', 'b', 3);
    stops.announce('wf-2', 'c', 1);
    expect(signal).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(signal.mock.calls).toEqual([
      [
        'wf-1',
        {
          queue: 'q/stop/w1',
          attempts: [
            { key: 'a', fencingToken: 1 },
            { key: 'b', fencingToken: 3 },
          ],
        },
      ],
      ['wf-2', { queue: 'q/stop/w1', attempts: [{ key: 'c', fencingToken: 1 }] }],
    ]);
  });

  it('stops only the attempts this worker runs, each once', async () => {
    const stops = new AttemptStops('q/stop/w1');
    const a = vi.fn();
    const unregisterB = stops.register('wf/b/1', vi.fn());
    stops.register('wf/a/1', a);
    unregisterB();
    const { stopAttempts } = createStopActivities(stops);
    expect(await stopAttempts({ leaseIds: ['wf/a/1', 'wf/b/1', 'wf/x/9'] })).toEqual({ stopped: 1 });
    expect(await stopAttempts({ leaseIds: ['wf/a/1'] })).toEqual({ stopped: 0 });
    expect(a).toHaveBeenCalledTimes(1);
  });
});
