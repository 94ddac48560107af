import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import type { AttemptOutcome, Claim } from '../../src/team/types';

type TaskInput = TeamPlanInput['tasks'][number];

const task = (key: string, dependsOn: string[] = []): TaskInput => ({ key, dependsOn, executor: { kind: 'noop' } });

function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'unit', teammates: 1, awaitAdjudication: true, ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-unit', 0);
}

const ok = (output?: unknown): AttemptOutcome => ({ kind: 'completed', output });
const failed = (message = 'boom'): AttemptOutcome => ({ kind: 'failed', message, nonRetryable: true });
const keys = (claims: Claim[]) => claims.map((c) => c.key);
const view = (run: TeamRun, key: string) => run.tasksPage().find((t) => t.key === key)!;
const eventsOf = (run: TeamRun, type: string) =>
  run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);

/** The code a refused request throws (TeamControlError), or "accepted". */
function codeOf(send: () => unknown): string {
  try {
    send();
    return 'accepted';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

/** Runs one claim after another to the end, each succeeding with `{ by: key }`, until `until` is settled. */
function runThrough(run: TeamRun, order: string[], t = 1): number {
  for (const key of order) {
    const claims = run.claim(t);
    expect(keys(claims)).toEqual([key]);
    run.settle(key, claims[0].fencingToken, ok({ by: key }), t + 1);
    t += 2;
  }
  return t;
}

/** a -> b -> c, and a -> d; with one teammate the plan order is the claim order. */
const diamond = () => [task('a'), task('b', ['a']), task('c', ['b']), task('d', ['a'])];

describe('reopenTask: a settled task sent back to a person', () => {
  it('puts a succeeded task in adjudication, naming its dependents that already ran; one not started waits again', () => {
    const run = runOf(diamond());
    const t = runThrough(run, ['a', 'b', 'c']);
    expect(view(run, 'd').status).toBe('ready');

    const verdict = run.reopenTask(
      { key: 'a', reason: 'deployed the wrong artifact', requestId: 'r1', actor: 'ops' },
      t,
    );

    expect(verdict).toMatchObject({ ok: true, dependents: ['b', 'c'], task: { key: 'a', status: 'adjudication' } });
    const [record] = run.adjudicationsView();
    expect(record).toMatchObject({
      key: 'a',
      code: 'TEAM_TASK_REOPENED',
      actor: 'ops',
      requestId: 'r1',
      dependents: ['b', 'c'],
      result: { by: 'a' },
      decision: null,
    });
    expect(record.reason).toBe(
      'reopened by ops (was succeeded): deployed the wrong artifact; dependents that already ran: b, c',
    );
    expect(eventsOf(run, 'task:reopened')).toEqual([
      expect.objectContaining({ key: 'a', actor: 'ops', requestId: 'r1', was: 'succeeded', dependents: ['b', 'c'] }),
    ]);
    // Not re-run by themselves; d, not started, waits for the decision.
    expect([view(run, 'b').status, view(run, 'c').status, view(run, 'd').status]).toEqual([
      'succeeded',
      'succeeded',
      'blocked',
    ]);
    expect(run.claim(t + 1)).toEqual([]);
  });

  it('accept without a result keeps what the task reported, and its waiting dependent runs', () => {
    const run = runOf(diamond());
    const t = runThrough(run, ['a', 'b', 'c']);
    run.reopenTask({ key: 'a', reason: 'check it', requestId: 'r1', actor: 'ops' }, t);
    run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'd1', actor: 'ops' }, t + 1);
    expect(view(run, 'a')).toMatchObject({ status: 'succeeded', output: { by: 'a' } });
    expect(keys(run.claim(t + 2))).toEqual(['d']);
  });

  it('retry runs it again with a new fencing token and its attempts bound afresh; reject fails it', () => {
    const run = runOf(diamond(), { retry: { maxAttempts: 1 } });
    const t = runThrough(run, ['a', 'b', 'c']);
    run.reopenTask({ key: 'a', reason: 'flaky deploy', requestId: 'r1' }, t);
    run.adjudicate({ key: 'a', decision: 'retry', decisionId: 'd1' }, t + 1);
    const [again] = run.claim(t + 2);
    expect(again).toMatchObject({ key: 'a', fencingToken: 2 });
    run.settle('a', again.fencingToken, failed('still broken'), t + 3);
    // maxAttempts 1, and the attempt before the retry no longer counts: failed for good now, not before.
    expect(view(run, 'a').status).toBe('failed');
    expect(view(run, 'd')).toMatchObject({ status: 'skipped', skipReason: 'dependency "a" failed' });
    expect([view(run, 'b').status, view(run, 'c').status]).toEqual(['succeeded', 'succeeded']);

    const second = runOf(diamond());
    const t2 = runThrough(second, ['a', 'b', 'c', 'd']);
    // A closed graph (every task settled) in a run still open: reopen, then reject.
    second.reopenTask({ key: 'b', reason: 'bad review', requestId: 'r2' }, t2);
    second.adjudicate({ key: 'b', decision: 'reject', decisionId: 'd2', reason: 'wrong' }, t2 + 1);
    expect(view(second, 'b')).toMatchObject({ status: 'failed', lastError: 'rejected by adjudication: wrong' });
    expect(view(second, 'c').status).toBe('succeeded');
  });

  it('is idempotent by requestId: the same request again changes nothing and answers idempotent', () => {
    const run = runOf(diamond());
    const t = runThrough(run, ['a', 'b', 'c']);
    const request = { key: 'a', reason: 'check', requestId: 'same', actor: 'ops' };
    run.reopenTask(request, t);
    run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'd1' }, t + 1);
    const repeat = run.reopenTask(request, t + 2);
    expect(repeat).toMatchObject({ ok: true, idempotent: true, dependents: ['b', 'c'], task: { status: 'succeeded' } });
    expect(run.adjudicationsView()).toHaveLength(1);
    expect(eventsOf(run, 'task:reopened')).toHaveLength(1);
  });

  it('governance.operators applies exactly as for adjudicate', () => {
    const run = runOf(diamond(), { governance: { operators: ['ops'] } });
    const t = runThrough(run, ['a']);
    expect(codeOf(() => run.reopenTask({ key: 'a', reason: 'x', requestId: 'r1', actor: 'mallory' }, t))).toBe(
      'forbidden',
    );
    expect(codeOf(() => run.reopenTask({ key: 'a', reason: 'x', requestId: 'r2' }, t))).toBe('forbidden');
    expect(codeOf(() => run.adjudicate({ key: 'a', decision: 'accept', decisionId: 'x', actor: 'mallory' }, t))).toBe(
      'forbidden',
    );
    expect(view(run, 'a').status).toBe('succeeded');
    expect(codeOf(() => run.reopenTask({ key: 'a', reason: 'x', requestId: 'r3', actor: 'ops' }, t))).toBe('accepted');
  });

  it('refuses a task not settled, a skipped one whose dependencies failed, and a run that is closing', () => {
    const run = runOf(diamond());
    const [a] = run.claim(1);
    expect(codeOf(() => run.reopenTask({ key: 'a', reason: 'x', requestId: 'r1' }, 2))).toBe('not_reopenable');
    expect(codeOf(() => run.reopenTask({ key: 'nope', reason: 'x', requestId: 'r1' }, 2))).toBe('not_found');
    expect(codeOf(() => run.reopenTask({ key: 'a', reason: '', requestId: 'r1' }, 2))).toBe('invalid_request');
    run.settle('a', a.fencingToken, failed(), 3);
    expect(view(run, 'b').status).toBe('skipped');
    let refusal = '';
    try {
      run.reopenTask({ key: 'b', reason: 'x', requestId: 'r1' }, 4);
    } catch (err) {
      refusal = (err as Error).message;
    }
    expect(refusal).toContain('dependencies "a" did not succeed: reopen those first');
    // A failed task may be reopened.
    expect(run.reopenTask({ key: 'a', reason: 'was it?', requestId: 'r2' }, 5).dependents).toEqual([]);

    const aborted = runOf(diamond());
    const t = runThrough(aborted, ['a']);
    aborted.abort({ reason: 'stop' }, t);
    try {
      aborted.reopenTask({ key: 'a', reason: 'x', requestId: 'r1' }, t + 1);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toMatchObject({ code: 'run_closed' });
      expect((err as Error).message).toContain('start a new run');
    }
  });
});
