import { beforeEach, describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { validatePlan } from '../../src/plan/validate';
import { TeamControlError } from '../../src/plan/requests/control';
import { TeamRun } from '../../src/team/run';
import type { Claim } from '../../src/team/types';

type TaskInput = TeamPlanInput['tasks'][number];

const task = (key: string, dependsOn: string[] = [], extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  dependsOn,
  executor: { kind: 'sleep', ms: 60_000 },
  ...extra,
});

let now = 1_000_000;
const tick = (ms = 10) => (now += ms);

function start(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'control', teammates: 2, tasks, ...extra });
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
  return TeamRun.start(validation.plan, 'wf-control', now);
}

function claimed(run: TeamRun, key: string, claims: Claim[]): Claim {
  const claim = claims.find((c) => c.key === key);
  if (!claim) throw new Error(`"${key}" was not claimed (claimed: ${claims.map((c) => c.key).join(', ')})`);
  return claim;
}

function statusOf(run: TeamRun, key: string) {
  return run.tasksPage().find((t) => t.key === key)!;
}

function eventsOf(run: TeamRun, type: string) {
  return run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);
}

function codeOf(check: () => unknown): string {
  try {
    check();
  } catch (err) {
    expect(err).toBeInstanceOf(TeamControlError);
    return (err as TeamControlError).code;
  }
  throw new Error('expected a TeamControlError');
}

/** Runs `a` (and `b`) and interrupts `a`, then lets its attempt come back cancelled with evidence. */
function interruptedIntoAdjudication(
  tasks: TaskInput[] = [task('a'), task('b', ['a'])],
  extra: Partial<TeamPlanInput> = {},
) {
  const run = start(tasks, extra);
  const a = claimed(run, 'a', run.claim(now));
  const verdict = run.interrupt(
    {
      key: 'a',
      fencingToken: a.fencingToken,
      requestId: 'req-1',
      actor: 'alice',
      reason: 'I take it',
      evidenceDigest: 'sha256:abc',
    },
    tick(),
  );
  expect(verdict.ok).toBe(true);
  run.drainCancellations();
  run.settle('a', a.fencingToken, { kind: 'cancelled', output: { partial: true }, usage: { inputTokens: 5 } }, tick());
  return { run, a };
}

describe('interruptTask: a human takes over the attempt that holds the token', () => {
  let run: TeamRun;
  let a: Claim;
  beforeEach(() => {
    run = start([task('a'), task('b', ['a'])]);
    a = claimed(run, 'a', run.claim(now));
  });

  it('with the right token, cancels the attempt and records who asked and why', () => {
    const requestedAt = tick();
    const verdict = run.interrupt(
      {
        key: 'a',
        fencingToken: a.fencingToken,
        requestId: 'req-1',
        actor: 'alice',
        reason: 'I take it',
        evidenceDigest: 'sha256:abc',
      },
      requestedAt,
    );
    expect(verdict).toEqual({
      ok: true,
      interruption: {
        key: 'a',
        holder: a.holder,
        leaseId: a.leaseId,
        fencingToken: a.fencingToken,
        requestId: 'req-1',
        actor: 'alice',
        reason: 'I take it',
        evidenceDigest: 'sha256:abc',
        requestedAt,
      },
    });
    expect(run.drainCancellations()).toEqual([{ key: 'a', fencingToken: a.fencingToken }]);
    expect(run.activeClaims()[0]).toMatchObject({ key: 'a', interrupted: true, interruption: { requestId: 'req-1' } });
    expect(eventsOf(run, 'task:interrupt-requested')).toEqual([
      expect.objectContaining({
        key: 'a',
        fencingToken: a.fencingToken,
        requestId: 'req-1',
        actor: 'alice',
        reason: 'I take it',
      }),
    ]);
  });

  it('settles the cancelled attempt in adjudication with the full record, and never retries it by itself', () => {
    run.interrupt(
      {
        key: 'a',
        fencingToken: a.fencingToken,
        requestId: 'req-1',
        actor: 'alice',
        reason: 'mine',
        evidenceDigest: 'd1',
      },
      tick(),
    );
    const requestedAt = now;
    run.drainCancellations();
    run.settle(
      'a',
      a.fencingToken,
      { kind: 'cancelled', usage: { inputTokens: 7, outputTokens: 3 }, output: { half: 1 } },
      tick(),
    );
    expect(statusOf(run, 'a').status).toBe('adjudication');
    expect(run.adjudicationsView()).toEqual([
      {
        key: 'a',
        code: 'TEAM_TASK_HUMAN_INTERRUPTED',
        reason: 'mine',
        requestId: 'req-1',
        actor: 'alice',
        evidenceDigest: 'd1',
        holder: a.holder,
        leaseId: a.leaseId,
        fencingToken: a.fencingToken,
        requestedAt,
        usage: { inputTokens: 7, outputTokens: 3 },
        result: { half: 1 },
        decision: null,
      },
    ]);
    expect(run.budgetView(now).used.tokens).toBe(10);
    expect(run.claim(tick(60_000))).toEqual([]);
    expect(run.phase()).toBe('awaiting_adjudication');
    expect(eventsOf(run, 'task:adjudication-required')).toHaveLength(1);
  });

  it('keeps a success that ignored or raced the interruption as evidence, never as a success', () => {
    run.interrupt({ key: 'a', fencingToken: a.fencingToken }, tick());
    run.settle(
      'a',
      a.fencingToken,
      { kind: 'completed', output: { done: 'anyway' }, usage: { outputTokens: 4 } },
      tick(),
    );
    expect(statusOf(run, 'a').status).toBe('adjudication');
    expect(statusOf(run, 'b').status).toBe('blocked');
    expect(run.adjudicationsView()[0]).toMatchObject({
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      result: { done: 'anyway' },
      usage: { outputTokens: 4 },
    });
  });

  it('still lands when the worker is dead and the lease expires instead', () => {
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'r' }, tick());
    run.settle('a', a.fencingToken, { kind: 'lease-lost' }, tick(3_000));
    expect(run.adjudicationsView()[0]).toMatchObject({ code: 'TEAM_TASK_HUMAN_INTERRUPTED', requestId: 'r' });
    expect(run.claim(tick(60_000))).toEqual([]);
  });

  it('accepts the token as a string of digits (as typed on a command line)', () => {
    expect(run.interrupt({ key: 'a', fencingToken: String(a.fencingToken) }, tick()).ok).toBe(true);
  });

  it('without a token interrupts the current attempt, as the schema says; repeated with its id, the same answer', () => {
    const verdict = run.interrupt({ key: 'a', requestId: 'no-token', actor: 'alice' }, tick());
    expect(verdict).toMatchObject({ ok: true, interruption: { key: 'a', fencingToken: a.fencingToken } });
    expect(run.drainCancellations()).toHaveLength(1);
    run.settle('a', a.fencingToken, { kind: 'cancelled' }, tick());
    expect(statusOf(run, 'a').status).toBe('adjudication');
    expect(run.interrupt({ key: 'a', requestId: 'no-token', actor: 'alice' }, tick())).toMatchObject({
      ok: true,
      idempotent: true,
      interruption: { fencingToken: a.fencingToken, requestId: 'no-token' },
    });
    expect(run.interrupt({ key: 'a', requestId: 'another' }, tick())).toEqual({ ok: false, reason: 'not_active' });
  });

  it('without a token, in a history recorded before it meant the current attempt: stale_attempt, as it ran', () => {
    run.usePatches(() => false);
    expect(run.interrupt({ key: 'a' }, tick())).toEqual({ ok: false, reason: 'stale_attempt' });
  });

  it.each([['a wrong token', { key: 'a', fencingToken: 99 }]])(
    'with %s is stale_attempt, and the attempt keeps running',
    (_, request) => {
      expect(run.interrupt(request, tick())).toEqual({ ok: false, reason: 'stale_attempt' });
      expect(run.drainCancellations()).toEqual([]);
      expect(run.activeClaims()[0]).toMatchObject({ key: 'a', interrupted: false });
      run.settle('a', a.fencingToken, { kind: 'completed', output: 1 }, tick());
      expect(statusOf(run, 'a').status).toBe('succeeded');
      expect(eventsOf(run, 'control:rejected')).toEqual([
        expect.objectContaining({ message: 'interruptTask', key: 'a', reason: 'stale_attempt' }),
      ]);
    },
  );

  it('of a task with no live attempt (finished, blocked, unknown) is not_active', () => {
    run.settle('a', a.fencingToken, { kind: 'completed' }, tick());
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken }, tick())).toEqual({
      ok: false,
      reason: 'not_active',
    });
    const fresh = start([task('x'), task('y', ['x'])]);
    expect(fresh.interrupt({ key: 'y', fencingToken: 0 }, tick())).toEqual({ ok: false, reason: 'not_active' });
    expect(fresh.interrupt({ key: 'nope', fencingToken: 1 }, tick())).toEqual({ ok: false, reason: 'not_active' });
  });

  it('checks not_active before the token, and the token before a second interruption', () => {
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'one' }, tick());
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken + 1, requestId: 'two' }, tick())).toEqual({
      ok: false,
      reason: 'stale_attempt',
    });
    expect(run.interrupt({ key: 'b', fencingToken: 1, requestId: 'one' }, tick())).toEqual({
      ok: false,
      reason: 'not_active',
    });
  });

  it('twice with the same requestId is idempotent; with another it is already_interrupted', () => {
    const first = run.interrupt(
      { key: 'a', fencingToken: a.fencingToken, requestId: 'req-1', reason: 'first' },
      tick(),
    );
    const again = run.interrupt(
      { key: 'a', fencingToken: a.fencingToken, requestId: 'req-1', reason: 'again' },
      tick(),
    );
    expect(again).toEqual({ ...first, idempotent: true });
    expect(run.drainCancellations()).toHaveLength(1);
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'req-2' }, tick())).toEqual({
      ok: false,
      reason: 'already_interrupted',
    });
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken }, tick())).toEqual({
      ok: false,
      reason: 'already_interrupted',
    });
    expect(eventsOf(run, 'task:interrupt-requested')).toHaveLength(1);
    expect(eventsOf(run, 'control:idempotent')).toEqual([
      expect.objectContaining({ message: 'interruptTask', requestId: 'req-1' }),
    ]);
  });

  it('twice with no requestId on either is idempotent', () => {
    run.interrupt({ key: 'a', fencingToken: a.fencingToken }, tick());
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken }, tick())).toMatchObject({
      ok: true,
      idempotent: true,
    });
  });

  it('repeated after the attempt settled gives the same answer to the same request, not_active to another', () => {
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'req-1', actor: 'alice' }, tick());
    run.settle('a', a.fencingToken, { kind: 'cancelled' }, tick());
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'req-1' }, tick())).toMatchObject({
      ok: true,
      idempotent: true,
      interruption: { key: 'a', fencingToken: a.fencingToken, requestId: 'req-1', actor: 'alice' },
    });
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'req-2' }, tick())).toEqual({
      ok: false,
      reason: 'not_active',
    });
    expect(run.adjudicationsView()).toHaveLength(1);
  });

  it('of an attempt the abort already stopped is not_active', () => {
    run.abort({ reason: 'stop' }, tick());
    expect(run.interrupt({ key: 'a', fencingToken: a.fencingToken }, tick())).toEqual({
      ok: false,
      reason: 'not_active',
    });
  });
});

describe('abortRun: the coordinator stops the whole run', () => {
  const plan = [task('a'), task('b'), task('c'), task('d', ['a'])];

  it('cancels every active attempt into adjudication and skips everything not started', () => {
    const run = start(plan);
    const claims = run.claim(now);
    expect(claims.map((c) => c.key)).toEqual(['a', 'b']);
    expect(run.abort({ reason: 'wrong branch', requestId: 'abort-1', actor: 'bob' }, tick())).toEqual({
      ok: true,
      activeClaims: 2,
    });
    expect(run.drainCancellations()).toEqual(claims.map((c) => ({ key: c.key, fencingToken: c.fencingToken })));
    expect(statusOf(run, 'c')).toMatchObject({ status: 'skipped', skipReason: 'run_aborted' });
    expect(statusOf(run, 'd')).toMatchObject({ status: 'skipped', skipReason: 'run_aborted' });
    expect(run.claim(tick())).toEqual([]);
    run.settle('a', claims[0].fencingToken, { kind: 'cancelled' }, tick());
    run.settle('b', claims[1].fencingToken, { kind: 'completed', output: 'late' }, tick());
    expect(run.adjudicationsView().map((r) => [r.key, r.code, r.reason, r.requestId, r.actor, r.result])).toEqual([
      ['a', 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', 'wrong branch', 'abort-1', 'bob', null],
      ['b', 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', 'wrong branch', 'abort-1', 'bob', 'late'],
    ]);
    expect(run.state()).toBe('awaiting_adjudication');
    expect(eventsOf(run, 'run:abort-requested')).toEqual([
      expect.objectContaining({ reason: 'wrong branch', requestId: 'abort-1', actor: 'bob', activeClaims: 2 }),
    ]);
    for (const key of ['a', 'b']) run.adjudicate({ key, decision: 'reject', decisionId: `d-${key}` }, tick());
    expect(run.phase()).toBe('done');
    expect(run.finish(tick()).status).toBe('aborted');
  });

  it('with requireAdjudication false, fails the stopped attempts instead', () => {
    const run = start(plan);
    const claims = run.claim(now);
    run.abort({ requireAdjudication: false }, tick());
    for (const c of claims) run.settle(c.key, c.fencingToken, { kind: 'cancelled' }, tick());
    expect(run.adjudicationsView()).toEqual([]);
    expect(statusOf(run, 'a').status).toBe('failed');
    expect(run.phase()).toBe('done');
    expect(run.finish(tick()).status).toBe('aborted');
  });

  it('a second time is idempotent and recorded', () => {
    const run = start(plan);
    run.claim(now);
    run.abort({ requestId: 'x' }, tick());
    expect(run.abort({ requestId: 'y', actor: 'carol' }, tick())).toEqual({
      ok: true,
      idempotent: true,
      activeClaims: 2,
    });
    expect(run.drainCancellations()).toHaveLength(2);
    expect(eventsOf(run, 'run:abort-requested')).toHaveLength(1);
    expect(eventsOf(run, 'control:idempotent')).toEqual([
      expect.objectContaining({ message: 'abortRun', requestId: 'y', actor: 'carol' }),
    ]);
  });

  it('takes no payload at all', () => {
    const run = start(plan);
    expect(run.abort(undefined, tick())).toEqual({ ok: true, activeClaims: 0 });
  });

  it('leaves an interrupted attempt to its interruption', () => {
    const run = start(plan);
    const [a] = run.claim(now);
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'take' }, tick());
    expect(run.abort({ requireAdjudication: false }, tick())).toEqual({ ok: true, activeClaims: 2 });
    run.settle('a', a.fencingToken, { kind: 'cancelled' }, tick());
    expect(run.adjudicationsView()[0]).toMatchObject({ code: 'TEAM_TASK_HUMAN_INTERRUPTED', requestId: 'take' });
  });
});

describe('workflow cancellation (temporal workflow cancel) is an abort; the run closes Canceled once decided', () => {
  it('aborts even under governance, waits for the adjudication, refuses retry, then closes with the cancellation in its result', () => {
    const run = start([task('a'), task('b', ['a'])], { governance: { operators: ['alice'] } });
    const [a] = run.claim(now);
    run.cancelRequested(tick());
    expect(run.cancelling).toBe(true);
    expect(run.drainCancellations()).toEqual([{ key: 'a', fencingToken: a.fencingToken }]);
    expect(run.phase()).toBe('working');
    run.settle('a', a.fencingToken, { kind: 'cancelled' }, tick());
    expect(run.phase()).toBe('awaiting_adjudication');
    expect(() => run.validateAdjudicate({ key: 'a', decision: 'retry', decisionId: 'd1', actor: 'alice' })).toThrow(
      expect.objectContaining({ code: 'run_not_accepting_work' }),
    );
    run.adjudicate({ key: 'a', decision: 'reject', decisionId: 'd1', actor: 'alice' }, tick());
    expect(run.phase()).toBe('done');
    const result = run.finish(tick());
    expect(result.status).toBe('aborted');
    expect(result.cancellation).toMatchObject({ abandonedAdjudications: 0 });
    expect(result.adjudications).toEqual([
      expect.objectContaining({
        key: 'a',
        code: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
        actor: 'temporal',
        decision: expect.objectContaining({ decision: 'reject' }),
      }),
    ]);
    expect(result.tasks.find((t) => t.key === 'b')).toMatchObject({ status: 'skipped', skipReason: 'run_aborted' });
  });

  it('without awaitAdjudication closes at once and says the adjudications were abandoned', () => {
    const run = start([task('a')], { awaitAdjudication: false });
    const [a] = run.claim(now);
    run.cancelRequested(tick());
    run.settle('a', a.fencingToken, { kind: 'cancelled' }, tick());
    expect(run.phase()).toBe('done');
    expect(run.finish(tick()).cancellation).toMatchObject({
      abandonedAdjudications: 1,
      message: 'cancelled: 1 adjudication(s) abandoned (awaitAdjudication is false); they can no longer be decided',
    });
  });

  it('keeps waiting on a run already aborted and awaiting adjudication, without a second abort', () => {
    const { run } = interruptedIntoAdjudication();
    run.abort({}, tick());
    expect(run.phase()).toBe('awaiting_adjudication');
    run.cancelRequested(tick());
    expect(run.phase()).toBe('awaiting_adjudication');
    expect(eventsOf(run, 'run:abort-requested')).toHaveLength(1);
    expect(eventsOf(run, 'run:cancel-requested')).toHaveLength(1);
  });

  it('a run never cancelled has no cancellation in its result', () => {
    const run = start([task('a')]);
    const [a] = run.claim(now);
    run.settle('a', a.fencingToken, { kind: 'completed', workerIdentity: 'w' }, tick());
    expect(run.finish(tick())).not.toHaveProperty('cancellation');
  });
});

describe('adjudicate: a human decides what an interrupted attempt became', () => {
  it('retry puts the task back to ready, and its next attempt gets a new fencing token and fresh attempts', () => {
    const { run, a } = interruptedIntoAdjudication([task('a', [], { retry: { maxAttempts: 1 } }), task('b', ['a'])]);
    const verdict = run.adjudicate(
      { key: 'a', decision: 'retry', decisionId: 'dec-1', actor: 'alice', reason: 'redo' },
      tick(),
    );
    expect(verdict).toMatchObject({ ok: true, task: { key: 'a', status: 'ready' } });
    expect(run.phase()).toBe('working');
    const next = claimed(run, 'a', run.claim(tick()));
    expect(next.fencingToken).toBeGreaterThan(a.fencingToken);
    expect(next.attempt).toBe(2);
    run.settle('a', next.fencingToken, { kind: 'failed', message: 'boom', nonRetryable: false }, tick());
    expect(statusOf(run, 'a').status).toBe('failed');
    expect(run.adjudicationsView()[0].decision).toEqual({
      decisionId: 'dec-1',
      decision: 'retry',
      actor: 'alice',
      reason: 'redo',
      decidedAt: now - 20,
      chain: { seq: 1, prev: '0'.repeat(64), digest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(eventsOf(run, 'task:adjudicated')).toEqual([
      expect.objectContaining({ key: 'a', decision: 'retry', decisionId: 'dec-1', actor: 'alice' }),
    ]);
  });

  it('accept marks it succeeded with the given result and unblocks its dependents', () => {
    const { run } = interruptedIntoAdjudication();
    const verdict = run.adjudicate(
      { key: 'a', decision: 'accept', decisionId: 'dec-1', result: { fixed: 'by hand' } },
      tick(),
    );
    expect(verdict.task).toMatchObject({ status: 'succeeded', output: { fixed: 'by hand' } });
    const b = claimed(run, 'b', run.claim(tick()));
    expect(b.dependencyOutputs).toEqual({ a: { fixed: 'by hand' } });
  });

  it('accept without a result keeps what the attempt reported', () => {
    const { run } = interruptedIntoAdjudication();
    expect(run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'dec-1' }, tick()).task.output).toEqual({
      partial: true,
    });
  });

  it('reject marks it failed and skips its dependents, transitively', () => {
    const { run } = interruptedIntoAdjudication([task('a'), task('b', ['a']), task('c', ['b']), task('z')]);
    run.adjudicate({ key: 'a', decision: 'reject', decisionId: 'dec-1', reason: 'bad edit' }, tick());
    expect(statusOf(run, 'a')).toMatchObject({ status: 'failed', lastError: 'rejected by adjudication: bad edit' });
    expect(statusOf(run, 'b')).toMatchObject({ status: 'skipped', skipReason: 'dependency "a" failed' });
    expect(statusOf(run, 'c').status).toBe('skipped');
    expect(statusOf(run, 'z').status).not.toBe('skipped');
  });

  it('the same decisionId again returns the first outcome, even after the task moved on', () => {
    const { run } = interruptedIntoAdjudication();
    const first = run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'dec-1', result: 1 }, tick());
    run.claim(tick());
    expect(run.adjudicate({ key: 'a', decision: 'reject', decisionId: 'dec-1' }, tick())).toEqual({
      ...first,
      idempotent: true,
    });
    expect(codeOf(() => run.validateAdjudicate({ key: 'a', decision: 'reject', decisionId: 'dec-2' }))).toBe(
      'adjudication_not_required',
    );
  });

  it('a decisionId named like an object property is an ordinary id', () => {
    const { run } = interruptedIntoAdjudication();
    for (const decisionId of ['constructor', 'toString', '__proto__']) {
      expect(codeOf(() => run.validateAdjudicate({ key: 'zzz', decision: 'accept', decisionId }))).toBe('not_found');
    }
    expect(
      run.adjudicate({ key: 'a', decision: 'accept', decisionId: '__proto__' }, tick()).idempotent,
    ).toBeUndefined();
    const restored = new TeamRun(run.snapshot());
    expect(restored.adjudicate({ key: 'a', decision: 'reject', decisionId: '__proto__' }, tick()).idempotent).toBe(
      true,
    );
  });

  describe('the validator rejects, with a stable code', () => {
    const cases: Array<[string, unknown, string]> = [
      ['an unknown task', { key: 'nope', decision: 'accept', decisionId: 'd' }, 'not_found'],
      ['a missing key', { decision: 'accept', decisionId: 'd' }, 'not_found'],
      ['an unknown decision', { key: 'a', decision: 'approve', decisionId: 'd' }, 'invalid_decision'],
      ['a missing decision', { key: 'a', decisionId: 'd' }, 'invalid_decision'],
      ['a missing decisionId', { key: 'a', decision: 'accept' }, 'decision_id_required'],
      ['an empty decisionId', { key: 'a', decision: 'accept', decisionId: '' }, 'decision_id_required'],
      [
        'a task not awaiting adjudication',
        { key: 'b', decision: 'accept', decisionId: 'd' },
        'adjudication_not_required',
      ],
      [
        'an evidence digest that differs',
        { key: 'a', decision: 'accept', decisionId: 'd', evidenceDigest: 'sha256:other' },
        'evidence_mismatch',
      ],
      ['a payload that is not an object', 'accept a', 'invalid_request'],
    ];
    it.each(cases)('%s', (_, payload, code) => {
      const { run } = interruptedIntoAdjudication();
      expect(codeOf(() => run.validateAdjudicate(payload))).toBe(code);
      expect(codeOf(() => run.adjudicate(payload, tick()))).toBe(code);
      expect(statusOf(run, 'a').status).toBe('adjudication');
    });

    it('the recorded evidence digest, given back, is accepted', () => {
      const { run } = interruptedIntoAdjudication();
      expect(() =>
        run.validateAdjudicate({ key: 'a', decision: 'accept', decisionId: 'd', evidenceDigest: 'sha256:abc' }),
      ).not.toThrow();
    });

    it('an actor outside governance.operators (forbidden)', () => {
      const { run } = interruptedIntoAdjudication(undefined, { governance: { operators: ['alice', 'bob'] } });
      expect(
        codeOf(() => run.validateAdjudicate({ key: 'a', decision: 'accept', decisionId: 'd', actor: 'mallory' })),
      ).toBe('forbidden');
      expect(codeOf(() => run.validateAdjudicate({ key: 'a', decision: 'accept', decisionId: 'd' }))).toBe('forbidden');
      expect(() =>
        run.validateAdjudicate({ key: 'a', decision: 'accept', decisionId: 'd', actor: 'bob' }),
      ).not.toThrow();
    });

    it('a retry after an abort (run_not_accepting_work); accept and reject still apply', () => {
      const { run } = interruptedIntoAdjudication();
      run.abort({ reason: 'enough' }, tick());
      expect(codeOf(() => run.validateAdjudicate({ key: 'a', decision: 'retry', decisionId: 'd' }))).toBe(
        'run_not_accepting_work',
      );
      expect(() => run.validateAdjudicate({ key: 'a', decision: 'reject', decisionId: 'd' })).not.toThrow();
    });

    it('a retry after the budget stopped the run (run_not_accepting_work)', () => {
      const { run } = interruptedIntoAdjudication([task('a'), task('b'), task('c')], {
        budget: { maxTasks: 2 },
        teammates: 1,
      });
      const b = claimed(run, 'b', run.claim(tick()));
      run.settle('b', b.fencingToken, { kind: 'completed' }, tick());
      expect(run.claim(tick())).toEqual([]);
      expect(run.budgetView(now)).toMatchObject({ stopped: true, reason: 'max-tasks' });
      expect(codeOf(() => run.validateAdjudicate({ key: 'a', decision: 'retry', decisionId: 'd' }))).toBe(
        'run_not_accepting_work',
      );
      expect(() => run.validateAdjudicate({ key: 'a', decision: 'accept', decisionId: 'd' })).not.toThrow();
    });
  });
});

describe('waiting for humans', () => {
  it('waits while adjudications are pending and nothing else can move, with the count in the status', () => {
    const { run } = interruptedIntoAdjudication([task('a'), task('b', ['a']), task('z')], { teammates: 1 });
    expect(run.phase()).toBe('working');
    const z = claimed(run, 'z', run.claim(tick()));
    run.settle('z', z.fencingToken, { kind: 'completed' }, tick());
    expect(run.phase()).toBe('awaiting_adjudication');
    expect(run.status(now)).toMatchObject({ state: 'awaiting_adjudication', pendingAdjudications: 1 });
    run.adjudicate({ key: 'a', decision: 'reject', decisionId: 'd' }, tick());
    expect(run.status(now)).toMatchObject({ state: 'failed', pendingAdjudications: 0 });
  });

  it('with awaitAdjudication false, closes unresolved with the pending ones in its result', () => {
    const { run } = interruptedIntoAdjudication(undefined, { awaitAdjudication: false });
    expect(run.phase()).toBe('done');
    const result = run.finish(tick());
    expect(result.status).toBe('unresolved');
    expect(result.stats.adjudication).toBe(1);
    expect(result.adjudications).toEqual([expect.objectContaining({ key: 'a', decision: null })]);
    expect(result.tasks.find((t) => t.key === 'b')?.status).toBe('skipped');
  });

  it('after the adjudication timeout, closes unresolved, and a retry is no longer possible', () => {
    const { run } = interruptedIntoAdjudication();
    run.closeUnresolved(tick());
    expect(run.phase()).toBe('done');
    expect(codeOf(() => run.validateAdjudicate({ key: 'a', decision: 'retry', decisionId: 'late' }))).toBe(
      'run_not_accepting_work',
    );
    expect(run.finish(tick()).status).toBe('unresolved');
    expect(eventsOf(run, 'run:adjudication-timeout')).toEqual([expect.objectContaining({ pending: 1 })]);
  });

  it('survives continue-as-new: interruptions, records and decisions carry over', () => {
    const run = start([task('a'), task('b')]);
    const [a, b] = run.claim(now);
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'r1' }, tick());
    run.interrupt({ key: 'b', fencingToken: b.fencingToken, requestId: 'r2' }, tick());
    run.settle('b', b.fencingToken, { kind: 'cancelled' }, tick());
    run.adjudicate({ key: 'b', decision: 'accept', decisionId: 'd1' }, tick());
    const restored = new TeamRun(run.snapshot());
    expect(restored.interrupt({ key: 'a', fencingToken: a.fencingToken, requestId: 'r1' }, tick())).toMatchObject({
      ok: true,
      idempotent: true,
    });
    expect(restored.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd1' }, tick())).toMatchObject({
      idempotent: true,
      task: { status: 'succeeded' },
    });
    restored.settle('a', a.fencingToken, { kind: 'cancelled' }, tick());
    expect(restored.adjudicationsView().map((r) => [r.key, r.requestId])).toEqual([
      ['b', 'r2'],
      ['a', 'r1'],
    ]);
  });
});

describe('governance: only the named operators steer the run', () => {
  const operators = { governance: { operators: ['alice'] } };

  it('a signal from anyone else changes nothing and records control:rejected with who and which request', () => {
    const run = start([task('a')], operators);
    const [a] = run.claim(now);
    expect(
      run.interrupt({ key: 'a', fencingToken: a.fencingToken, actor: 'mallory', requestId: 'm1' }, tick()),
    ).toMatchObject({
      ok: false,
      reason: 'forbidden',
    });
    expect(run.abort({ actor: 'mallory', requestId: 'm2' }, tick())).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(run.abort({ requestId: 'm3' }, tick())).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(run.drainCancellations()).toEqual([]);
    expect(run.phase()).toBe('working');
    expect(eventsOf(run, 'control:rejected').map((e) => [e.message, e.reason, e.actor, e.requestId])).toEqual([
      ['interruptTask', 'forbidden', 'mallory', 'm1'],
      ['abortRun', 'forbidden', 'mallory', 'm2'],
      ['abortRun', 'forbidden', null, 'm3'],
    ]);
  });

  it('the update validators reject the same actor as forbidden, and let an operator through', () => {
    const run = start([task('a')], operators);
    expect(codeOf(() => run.validateInterrupt({ key: 'a', fencingToken: 1, actor: 'mallory' }))).toBe('forbidden');
    expect(codeOf(() => run.validateAbort({ actor: 'mallory' }))).toBe('forbidden');
    expect(() => run.validateInterrupt({ key: 'a', fencingToken: 1, actor: 'alice' })).not.toThrow();
    expect(() => run.validateAbort({ actor: 'alice' })).not.toThrow();
    expect(run.abort({ actor: 'alice' }, tick())).toMatchObject({ ok: true });
  });

  it('without governance, anyone (or no actor at all) may steer', () => {
    const run = start([task('a')]);
    expect(() => run.validateAbort({ actor: 'whoever' })).not.toThrow();
    expect(() => run.validateAbort(undefined)).not.toThrow();
  });
});

describe('bad control input never changes the run and never throws from a signal', () => {
  const huge = 'x'.repeat(100_000);
  const interrupts: Array<[string, unknown]> = [
    ['no payload', undefined],
    ['null', null],
    ['a string', 'interrupt a'],
    ['an array', ['a', 1]],
    ['a missing key', { fencingToken: 1 }],
    ['a key of the wrong type', { key: 42, fencingToken: 1 }],
    ['a token of the wrong type', { key: 'a', fencingToken: { n: 1 } }],
    ['a fractional token', { key: 'a', fencingToken: 1.5 }],
    ['an oversized reason', { key: 'a', fencingToken: 1, reason: huge }],
    ['an oversized actor', { key: 'a', fencingToken: 1, actor: huge, requestId: huge }],
    ['an oversized key', { key: huge, fencingToken: 1 }],
  ];
  // Oversized values are refused as value_too_large (naming the field), anything else malformed as invalid_request.
  const expectedCode = (scenario: string) => (scenario.includes('oversized') ? 'value_too_large' : 'invalid_request');
  it.each(interrupts)('interruptTask with %s is control:rejected', (scenario, payload) => {
    const run = start([task('a')]);
    run.claim(now);
    const before = run.tasksPage();
    const code = expectedCode(scenario);
    expect(run.interrupt(payload, tick())).toMatchObject({ ok: false, reason: code });
    expect(codeOf(() => run.validateInterrupt(payload))).toBe(code);
    expect(run.drainCancellations()).toEqual([]);
    expect(run.tasksPage()).toEqual(before);
    const [rejected] = eventsOf(run, 'control:rejected');
    expect(rejected).toMatchObject({ message: 'interruptTask', reason: code });
    expect(JSON.stringify(rejected).length).toBeLessThan(2_000);
  });

  const aborts: Array<[string, unknown]> = [
    ['a string', 'stop now'],
    ['a number', 7],
    ['requireAdjudication of the wrong type', { requireAdjudication: 'no' }],
    ['an oversized reason', { reason: huge }],
  ];
  it.each(aborts)('abortRun with %s is control:rejected and the run goes on', (scenario, payload) => {
    const run = start([task('a'), task('b')]);
    run.claim(now);
    expect(run.abort(payload, tick())).toMatchObject({ ok: false, reason: expectedCode(scenario) });
    expect(codeOf(() => run.validateAbort(payload))).toBe(expectedCode(scenario));
    expect(run.drainCancellations()).toEqual([]);
    expect(run.status(now).state).toBe('running');
    expect(eventsOf(run, 'control:rejected')).toHaveLength(1);
  });
});
