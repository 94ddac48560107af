import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { defaultHeartbeatEveryMs, heartbeatEveryMs } from '../../src/plan/lease-pace';
import { SUGGESTED_SIZE_BYTES, handOverDue, handOverOnAnySuggestion } from '../../src/team/handover';
import { TeamRun } from '../../src/team/run';
import {
  MAX_ANNOUNCED_PER_SIGNAL,
  MAX_STOPS_PER_REQUEST,
  parseAnnouncements,
  stopsByQueue,
} from '../../src/team/stop-channel';

type TaskInput = TeamPlanInput['tasks'][number];
const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'sleep', ms: 60_000 },
  ...extra,
});

function start(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'stops', teammates: 4, tasks, ...extra });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-stops', 1_000);
}

describe('the lease pace', () => {
  it.each([
    [1_000, 500],
    [2_000, 1_000],
    [3_000, 1_500],
    [20_000, 10_000],
    [30_000, 20_000],
    [60_000, 40_000],
    [120_000, 80_000],
  ])('a %i ms TTL heartbeats every %i ms by default', (ttlMs, every) => {
    expect(defaultHeartbeatEveryMs(ttlMs)).toBe(every);
  });

  it('gives a 10-minute attempt with the default 30 s TTL at most 30 heartbeats', () => {
    expect(Math.floor(600_000 / heartbeatEveryMs({ ttlMs: 30_000 }))).toBeLessThanOrEqual(30);
  });

  it('takes the plan pace, a task lease overrides it, and claims carry it', () => {
    const run = start(
      [
        task('a'),
        task('b', { lease: { ttlMs: 9_000 } }),
        task('c', { lease: { ttlMs: 9_000, heartbeatEveryMs: 1_000 } }),
      ],
      {
        lease: { ttlMs: 30_000, heartbeatEveryMs: 5_000 },
      },
    );
    const paces = Object.fromEntries(run.claim(2_000).map((c) => [c.key, c.heartbeatEveryMs]));
    expect(paces).toEqual({ a: 5_000, b: 4_500, c: 1_000 });
  });

  it('refuses a pace over 80% of the TTL or under 250 ms', () => {
    for (const lease of [
      { ttlMs: 10_000, heartbeatEveryMs: 8_001 },
      { ttlMs: 10_000, heartbeatEveryMs: 100 },
    ]) {
      const validation = validatePlan({ name: 'p', lease, tasks: [task('a')] });
      expect(validation.ok).toBe(false);
      if (!validation.ok) expect(formatProblems(validation.problems)).toContain('heartbeatEveryMs');
    }
    expect(validatePlan({ name: 'p', lease: { ttlMs: 10_000, heartbeatEveryMs: 8_000 }, tasks: [task('a')] }).ok).toBe(
      true,
    );
  });

  it('allows 1,000 teammates and no more', () => {
    expect(validatePlan({ name: 'p', teammates: 1_000, tasks: [task('a')] }).ok).toBe(true);
    expect(validatePlan({ name: 'p', teammates: 1_001, tasks: [task('a')] }).ok).toBe(false);
  });
});

describe('announcements', () => {
  it('keeps the well-formed entries of a bounded payload and drops the rest', () => {
    const queue = 'teamrun/stop/w1/abc';
    expect(
      parseAnnouncements({
        queue,
        attempts: [
          { key: 'a', fencingToken: 1 },
          { key: '', fencingToken: 1 },
          { key: 'b', fencingToken: 0 },
          { key: 'c', fencingToken: 1.5 },
          null,
          { key: 'd', fencingToken: 2 },
        ],
      }),
    ).toEqual([
      { key: 'a', fencingToken: 1, queue },
      { key: 'd', fencingToken: 2, queue },
    ]);
    expect(parseAnnouncements({ queue: 'x'.repeat(301), attempts: [{ key: 'a', fencingToken: 1 }] })).toEqual([]);
    expect(parseAnnouncements({ queue: 'bad\nqueue', attempts: [{ key: 'a', fencingToken: 1 }] })).toEqual([]);
    expect(
      parseAnnouncements({
        queue,
        attempts: Array.from({ length: MAX_ANNOUNCED_PER_SIGNAL + 1 }, () => ({ key: 'a', fencingToken: 1 })),
      }),
    ).toEqual([]);
    expect(parseAnnouncements('nonsense')).toEqual([]);
  });

  it('groups stops by queue, each lease once, in bounded chunks', () => {
    const many = Array.from({ length: MAX_STOPS_PER_REQUEST + 2 }, (_, i) => ({ queue: 'q1', leaseId: `l${i}` }));
    const requests = stopsByQueue([{ queue: 'q2', leaseId: 'x' }, ...many, { queue: 'q2', leaseId: 'x' }]);
    expect(requests.map((r) => [r.queue, r.leaseIds.length])).toEqual([
      ['q2', 1],
      ['q1', MAX_STOPS_PER_REQUEST],
      ['q1', 2],
    ]);
  });
});

describe('the direct stop path', () => {
  it('sends a stop to the queue an interrupted attempt announced, besides its cancellation', () => {
    const run = start([task('a'), task('b')]);
    const [a, b] = run.claim(2_000);
    expect(run.attemptsRunning({ queue: 'q-w1', attempts: [{ key: 'a', fencingToken: a.fencingToken }] })).toBe(1);
    expect(run.drainStops()).toEqual([]);
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, actor: 'alice' }, 3_000);
    run.interrupt({ key: 'b', fencingToken: b.fencingToken, actor: 'alice' }, 3_000);
    expect(run.drainCancellations().map((c) => c.key)).toEqual(['a', 'b']);
    // b never announced: its cancellation (the heartbeat response) is all it gets.
    expect(run.drainStops()).toEqual([{ queue: 'q-w1', leaseIds: [a.leaseId] }]);
  });

  it('stops an attempt that announces after it was interrupted, at once', () => {
    const run = start([task('a')]);
    const [a] = run.claim(2_000);
    run.interrupt({ key: 'a', fencingToken: a.fencingToken }, 2_500);
    run.drainCancellations();
    expect(run.drainStops()).toEqual([]);
    const seen = run.version;
    run.attemptsRunning({ queue: 'q-late', attempts: [{ key: 'a', fencingToken: a.fencingToken }] });
    expect(run.version).not.toBe(seen);
    expect(run.drainStops()).toEqual([{ queue: 'q-late', leaseIds: [a.leaseId] }]);
  });

  it('ignores announcements for stale attempts, unknown tasks and repeats', () => {
    const run = start([task('a')]);
    const [a] = run.claim(2_000);
    expect(
      run.attemptsRunning({
        queue: 'q',
        attempts: [
          { key: 'a', fencingToken: a.fencingToken + 1 },
          { key: 'nope', fencingToken: 1 },
        ],
      }),
    ).toBe(0);
    expect(run.attemptsRunning({ queue: 'q', attempts: [{ key: 'a', fencingToken: a.fencingToken }] })).toBe(1);
    expect(run.attemptsRunning({ queue: 'other', attempts: [{ key: 'a', fencingToken: a.fencingToken }] })).toBe(0);
  });

  it('groups an abort of many announced attempts into one stop per worker queue', () => {
    const run = start(
      Array.from({ length: 8 }, (_, i) => task(`t${i}`)),
      { teammates: 8 },
    );
    const claims = run.claim(2_000);
    claims.forEach((c, i) =>
      run.attemptsRunning({ queue: `q${i % 2}`, attempts: [{ key: c.key, fencingToken: c.fencingToken }] }),
    );
    run.abort({ actor: 'ops' }, 3_000);
    expect(run.drainCancellations()).toHaveLength(8);
    expect(run.drainStops().map((s) => [s.queue, s.leaseIds.length])).toEqual([
      ['q0', 4],
      ['q1', 4],
    ]);
  });
});

describe('handing over (continue-as-new)', () => {
  const info = (historyLength: number, historySize: number, continueAsNewSuggested: boolean) => ({
    historyLength,
    historySize,
    continueAsNewSuggested,
  });
  it("follows its own event bound, and Temporal's suggestion only for history size", () => {
    const maxBytes = 8 * 1024 * 1024;
    expect(handOverDue(info(8_000, 1_000, false), 8_000, maxBytes)).toBe(true);
    expect(handOverDue(info(100, maxBytes, false), 8_000, maxBytes)).toBe(true);
    expect(handOverDue(info(4_100, 2_000_000, true), 8_000, maxBytes)).toBe(false);
    expect(handOverDue(info(4_100, SUGGESTED_SIZE_BYTES, true), 8_000, maxBytes)).toBe(true);
    expect(handOverDue(info(4_100, SUGGESTED_SIZE_BYTES, false), 8_000, maxBytes)).toBe(false);
    expect(handOverOnAnySuggestion(info(4_100, 2_000_000, true), 8_000, maxBytes)).toBe(true);
  });
});
