import { describe, expect, it } from 'vitest';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { ATTEMPT_GONE, adoptOutcome, adoptWithinMs, ADOPT_WITHIN_MIN_MS } from '../../src/team/handover';
import { TeamRun } from '../../src/team/run';
import { packSnapshot, unpackSnapshot } from '../../src/team/snapshot';
import type { TeamPlanInput } from '../../src/plan/schema';

const T0 = 1_760_000_000_000;

function runOf(extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({
    name: 'carry',
    teammates: 3,
    lease: { ttlMs: 5_000 },
    budget: { maxTasks: 100 },
    tasks: [
      { key: 'long', executor: { kind: 'shell', command: 'sleep 600' }, estimate: { tokens: 40 } },
      { key: 'other', executor: { kind: 'shell', command: 'sleep 600' } },
      { key: 'after', dependsOn: ['long'], executor: { kind: 'noop' } },
    ],
    ...extra,
  });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-carry', T0);
}

const continued = (run: TeamRun) =>
  new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));

const announce = (run: TeamRun, queue: string, key: string, fencingToken: number) =>
  run.attemptsRunning({ queue, attempts: [{ key, fencingToken }] });

describe('handing a run over with attempts in flight', () => {
  it('carries attempts only once every one in flight announced its stop queue, and none is stopped', () => {
    const run = runOf();
    expect(run.mayHandOver()).toBe(true); // nothing in flight
    const [long, other] = run.claim(T0);
    expect(run.mayHandOver()).toBe(false); // neither announced: short, or about to announce
    announce(run, 'q-w1', 'long', long.fencingToken);
    expect(run.mayHandOver()).toBe(false); // `other` has not announced yet
    announce(run, 'q-w2', 'other', other.fencingToken);
    expect(run.mayHandOver()).toBe(true);
    expect(run.handOverRequests()).toEqual([
      { queue: 'q-w1', leaseIds: [long.leaseId] },
      { queue: 'q-w2', leaseIds: [other.leaseId] },
    ]);
    // An interrupted attempt is about to end: waited for, not carried.
    run.interrupt({ key: 'other', fencingToken: other.fencingToken, actor: 'ops', reason: 'fix' }, T0 + 5);
    expect(run.mayHandOver()).toBe(false);
  });

  it('never carries the attempts of a run holding shared-ledger slots', () => {
    const run = runOf({ budget: { maxTasks: 100, ledger: 'shared' } });
    const [long, other] = run.claim(T0);
    announce(run, 'q', 'long', long.fencingToken);
    announce(run, 'q', 'other', other.fencingToken);
    expect(run.mayHandOver()).toBe(false);
  });

  it('a carried lease survives the snapshot: same token, lease, holder, reservation and stop queue', () => {
    const run = runOf();
    const [long, other] = run.claim(T0);
    announce(run, 'q-w1', 'long', long.fencingToken);
    announce(run, 'q-w1', 'other', other.fencingToken);
    const next = continued(run);
    expect(next.activeClaims()).toEqual(run.activeClaims());
    expect(next.budgetView(T0 + 10)).toEqual(run.budgetView(T0 + 10));
    expect(next.status(T0 + 10)).toEqual(run.status(T0 + 10));
    const adoptions = next.adoptions();
    expect(adoptions.map((a) => [a.key, a.attempt.fencingToken, a.attempt.leaseId, a.attempt.stopQueue])).toEqual([
      ['long', long.fencingToken, long.leaseId, 'q-w1'],
      ['other', other.fencingToken, other.leaseId, 'q-w1'],
    ]);
    expect(adoptions[0]).toMatchObject({ ttlMs: 5_000, heartbeatEveryMs: long.heartbeatEveryMs });
    expect(adoptions[0].attempt).toMatchObject({ holder: long.holder, reservation: { tokens: 40, usd: 0 } });
    // Nothing is claimed twice, and the carried attempt settles the task once, with its own token.
    expect(next.claim(T0 + 20)).toEqual([]);
    next.settle('long', long.fencingToken, { kind: 'completed', output: 'done' }, T0 + 30);
    expect(next.tasksPage().find((t) => t.key === 'long')).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(next.budgetView(T0 + 30).reserved.tokens).toBe(run.budgetView(T0).reserved.tokens - 40);
    expect(next.claim(T0 + 31).map((c) => c.key)).toEqual(['after']);
  });

  it('an attempt stopped while its run handed over is stopped again by the next run', () => {
    const run = runOf();
    const [long] = run.claim(T0);
    announce(run, 'q-w1', 'long', long.fencingToken);
    run.interrupt({ key: 'long', fencingToken: long.fencingToken, actor: 'ops', reason: 'fix' }, T0 + 5);
    const next = continued(run);
    expect(next.drainCancellations()).toEqual([{ key: 'long', fencingToken: long.fencingToken }]);
    expect(next.drainStops()).toEqual([{ queue: 'q-w1', leaseIds: [long.leaseId] }]);
  });

  it('an adopt that finds no attempt, or is not picked up in time, is a lost lease; one cancelled unstarted a cancellation', () => {
    const gone = { kind: 'failed', message: 'gone', errorType: ATTEMPT_GONE, nonRetryable: true } as const;
    expect(adoptOutcome(gone, false)).toEqual({ kind: 'lease-lost' });
    expect(adoptOutcome({ kind: 'failed', message: 'attempt timed out', nonRetryable: false }, true)).toEqual({
      kind: 'lease-lost',
    });
    expect(adoptOutcome({ kind: 'not-started', reason: null, message: 'x' }, false)).toEqual({ kind: 'cancelled' });
    const done = { kind: 'completed', output: 1 } as const;
    expect(adoptOutcome(done, false)).toBe(done);
    expect(adoptWithinMs(5_000)).toBe(ADOPT_WITHIN_MIN_MS);
    expect(adoptWithinMs(120_000)).toBe(120_000);
  });

  it('a lost adopt re-leases the task with a new fencing token', () => {
    const run = runOf();
    const [long] = run.claim(T0);
    announce(run, 'q-w1', 'long', long.fencingToken);
    const next = continued(run);
    next.settle(
      'long',
      long.fencingToken,
      adoptOutcome({ kind: 'failed', message: 'gone', errorType: ATTEMPT_GONE, nonRetryable: true }, false),
      T0 + 40,
    );
    const again = next.claim(T0 + 41).find((c) => c.key === 'long')!;
    expect(again.fencingToken).toBe(long.fencingToken + 1);
  });
});
