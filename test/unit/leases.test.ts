import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import type { AttemptOutcome, Claim } from '../../src/team/types';

type TaskInput = TeamPlanInput['tasks'][number];

const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'sleep', ms: 60_000 },
  ...extra,
});

/** A run of `tasks` started at time 0 (the clock is a plain number the test moves). */
function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'leases', lease: { ttlMs: 2_000 }, ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-leases', 0);
}

const lost = (workerIdentity?: string): AttemptOutcome => ({ kind: 'lease-lost', workerIdentity });
const released = (workerIdentity = 'w-draining'): AttemptOutcome => ({ kind: 'released', workerIdentity });
const ok = (output?: unknown): AttemptOutcome => ({ kind: 'completed', output, workerIdentity: 'w-late' });
const taskOf = (run: TeamRun, key: string) => run.tasksPage().find((t) => t.key === key)!;
const eventsOf = (run: TeamRun, type: string) =>
  run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);
const only = (claims: Claim[]): Claim => {
  expect(claims).toHaveLength(1);
  return claims[0];
};

describe('a lost lease (heartbeats stopped past the TTL)', () => {
  it('is leased again with attempts left: a new attempt, a greater token, a new activity id, and both identities in the events', () => {
    const run = runOf([task('build')]);
    const first = only(run.claim(0));
    expect(first).toMatchObject({
      attempt: 1,
      fencingToken: 1,
      activityId: 'build#1',
      leaseId: 'wf-leases/build/1',
      holder: 'teammate-1',
      ttlMs: 2_000,
    });

    run.settle('build', 1, lost('worker-a'), 2_500);
    const second = only(run.claim(2_500));

    expect(second).toMatchObject({
      attempt: 2,
      fencingToken: 2,
      activityId: 'build#2',
      leaseId: 'wf-leases/build/2',
      holder: 'teammate-1',
    });
    const previous = { holder: 'teammate-1', leaseId: 'wf-leases/build/1', fencingToken: 1 };
    expect(eventsOf(run, 'lease:expired')).toEqual([
      expect.objectContaining({ key: 'build', ...previous, workerIdentity: 'worker-a', at: 2_500 }),
    ]);
    expect(eventsOf(run, 'lease:changed')).toEqual([
      expect.objectContaining({
        key: 'build',
        previous: { ...previous, workerIdentity: 'worker-a' },
        next: { holder: 'teammate-1', leaseId: 'wf-leases/build/2', fencingToken: 2 },
      }),
    ]);
    expect(taskOf(run, 'build')).toMatchObject({ status: 'leased', attempts: 2, fencingToken: 2 });
    expect(run.adjudicationsView()).toEqual([]);
  });

  it('records the worker identity as unknown when no heartbeat ever reached the server', () => {
    const run = runOf([task('build')]);
    run.claim(0);
    run.settle('build', 1, lost(), 2_000);
    expect(eventsOf(run, 'lease:expired')[0]).toMatchObject({ fencingToken: 1, workerIdentity: null });
  });

  it('goes to adjudication when onLeaseLost is "adjudicate": its outcome is unknown, and nothing re-runs it', () => {
    const run = runOf([task('migrate', { onLeaseLost: 'adjudicate' }), task('after', { dependsOn: ['migrate'] })]);
    run.claim(0);
    run.settle('migrate', 1, lost('worker-a'), 2_100);

    expect(taskOf(run, 'migrate')).toMatchObject({ status: 'adjudication', attempts: 1 });
    expect(run.adjudicationsView()).toEqual([
      expect.objectContaining({
        key: 'migrate',
        code: 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED',
        holder: 'teammate-1',
        leaseId: 'wf-leases/migrate/1',
        fencingToken: 1,
        decision: null,
      }),
    ]);
    expect(run.adjudicationsView()[0].reason).toContain('onLeaseLost is "adjudicate"');
    expect(run.claim(10_000)).toEqual([]);
    expect(run.phase()).toBe('awaiting_adjudication');
    expect(eventsOf(run, 'lease:expired')).toHaveLength(1);
    expect(eventsOf(run, 'lease:changed')).toEqual([]);

    // The lost attempt's worker comes back with a success: evidence at most, never a settlement.
    run.settle('migrate', 1, ok({ phantom: true }), 12_000);
    expect(taskOf(run, 'migrate').status).toBe('adjudication');
    expect(eventsOf(run, 'attempt:stale-result')).toEqual([
      expect.objectContaining({ key: 'migrate', fencingToken: 1, outcome: 'completed' }),
    ]);
  });

  it('goes to adjudication when it was the last attempt', () => {
    const run = runOf([task('build')], { retry: { maxAttempts: 2, backoffMs: 0 } });
    run.claim(0);
    run.settle('build', 1, { kind: 'failed', message: 'exit 1', nonRetryable: false }, 10);
    only(run.claim(10));
    run.settle('build', 2, lost('worker-b'), 2_100);

    expect(taskOf(run, 'build')).toMatchObject({ status: 'adjudication', attempts: 2, fencingToken: 2 });
    expect(run.adjudicationsView()[0]).toMatchObject({
      code: 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED',
      fencingToken: 2,
    });
    expect(run.adjudicationsView()[0].reason).toContain('all 2 attempts spent');
  });

  it('is still recorded when the attempt was already being stopped, which then decides where the task goes', () => {
    const run = runOf([task('build')]);
    run.claim(0);
    expect(run.interrupt({ key: 'build', fencingToken: 1, actor: 'alice', requestId: 'r1' }, 100)).toMatchObject({
      ok: true,
    });
    run.settle('build', 1, lost('worker-a'), 2_100);

    expect(eventsOf(run, 'lease:expired')).toEqual([
      expect.objectContaining({ key: 'build', fencingToken: 1, workerIdentity: 'worker-a' }),
    ]);
    expect(run.adjudicationsView()).toEqual([
      expect.objectContaining({ code: 'TEAM_TASK_HUMAN_INTERRUPTED', requestId: 'r1' }),
    ]);
  });

  it('goes to adjudication, not back to the queue, once the run stopped taking work', () => {
    // The lost one is of a custom kind: nothing bounds what it spent.
    const run = runOf([task('priced'), task('lost', { executor: { kind: 'my-spender' } }), task('handed-back')], {
      teammates: 3,
      budget: { maxUsd: 1 },
    });
    expect(run.claim(0)).toHaveLength(3);
    // Usage of a model with no price while maxUsd is set stops the run; the other two are still out.
    run.settle('priced', 1, { kind: 'completed', usage: { model: 'no-such-model', inputTokens: 10 } }, 10);
    expect(run.budgetView(10)).toMatchObject({ stopped: true, reason: 'unpriced-usage' });

    run.settle('lost', 1, lost('worker-a'), 2_100);
    run.settle('handed-back', 1, released('worker-b'), 2_200);

    expect(run.adjudicationsView().map((r) => [r.key, r.code])).toEqual([
      ['lost', 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED'],
      ['handed-back', 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED'],
    ]);
    // The lost one's usage is unknown under a dollar limit; the handed-back one could run again but the run stopped.
    expect(run.adjudicationsView()[0].reason).toContain('usage-unknown');
    expect(run.adjudicationsView()[1].reason).toContain('the run stopped taking work: unpriced-usage');
    expect(run.claim(3_000)).toEqual([]);
    expect(run.phase()).toBe('awaiting_adjudication');
  });
});

describe('an attempt handed back by a worker shutting down', () => {
  it('is leased again at once, without counting against the attempts, and never adjudicated', () => {
    const run = runOf([task('build')], { retry: { maxAttempts: 1, backoffMs: 60_000 } });
    run.claim(0);
    run.settle('build', 1, released('worker-a'), 500);
    const second = only(run.claim(500));
    run.settle('build', 2, released('worker-b'), 900);
    const third = only(run.claim(900));
    run.settle('build', 3, ok('done'), 1_500);

    expect([second.fencingToken, third.fencingToken]).toEqual([2, 3]);
    expect(taskOf(run, 'build')).toMatchObject({ status: 'succeeded', attempts: 3, fencingToken: 3, output: 'done' });
    expect(run.adjudicationsView()).toEqual([]);
    expect(eventsOf(run, 'lease:released')).toEqual([
      expect.objectContaining({
        key: 'build',
        holder: 'teammate-1',
        leaseId: 'wf-leases/build/1',
        fencingToken: 1,
        workerIdentity: 'worker-a',
      }),
      expect.objectContaining({
        key: 'build',
        leaseId: 'wf-leases/build/2',
        fencingToken: 2,
        workerIdentity: 'worker-b',
      }),
    ]);
    expect(
      eventsOf(run, 'lease:changed').map((e) => [
        (e.previous as { fencingToken: number }).fencingToken,
        (e.next as { fencingToken: number }).fencingToken,
      ]),
    ).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });
});

describe('leases across a snapshot (continue-as-new, replay)', () => {
  it('keeps the tokens and the lost lease, so the next attempt still gets a greater token and names the one before', () => {
    const run = runOf([task('build')], { retry: { maxAttempts: 3, backoffMs: 0 } });
    run.claim(0);
    run.settle('build', 1, lost('worker-a'), 2_000);

    const restored = new TeamRun(JSON.parse(JSON.stringify(run.snapshot())));
    const next = only(restored.claim(2_000));

    expect(next).toMatchObject({ attempt: 2, fencingToken: 2, activityId: 'build#2' });
    expect(eventsOf(restored, 'lease:changed')).toEqual([
      expect.objectContaining({
        previous: expect.objectContaining({ fencingToken: 1, workerIdentity: 'worker-a' }),
        next: expect.objectContaining({ fencingToken: 2 }),
      }),
    ]);
  });
});

describe('the activeClaims query', () => {
  it('lists every attempt holding a lease, as CONTRACT.md gives it', () => {
    const run = runOf([task('a'), task('b'), task('c')], { teammates: 2 });
    run.claim(100);
    run.interrupt({ key: 'b', fencingToken: 1, actor: 'alice', requestId: 'take-b', reason: 'by hand' }, 150);

    expect(run.activeClaims()).toEqual([
      {
        key: 'a',
        holder: 'teammate-1',
        leaseId: 'wf-leases/a/1',
        fencingToken: 1,
        attempt: 1,
        activityId: 'a#1',
        startedAt: 100,
        interrupted: false,
        interruption: null,
      },
      {
        key: 'b',
        holder: 'teammate-2',
        leaseId: 'wf-leases/b/1',
        fencingToken: 1,
        attempt: 1,
        activityId: 'b#1',
        startedAt: 100,
        interrupted: true,
        interruption: {
          requestId: 'take-b',
          actor: 'alice',
          reason: 'by hand',
          evidenceDigest: null,
          requestedAt: 150,
        },
      },
    ]);
    run.settle('a', 1, lost(), 2_100);
    expect(run.activeClaims().map((c) => c.key)).toEqual(['b']);
    expect(run.claim(2_100).map((c) => [c.key, c.fencingToken, c.holder])).toEqual([['a', 2, 'teammate-1']]);
  });
});
