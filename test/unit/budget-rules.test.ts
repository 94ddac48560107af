import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import type { Claim } from '../../src/team/types';

const T0 = 1_700_000_000_000;
const noops = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `t${i + 1}`, executor: { kind: 'noop' } }));
/** A custom kind spends without asking the run: nothing bounds what a lost attempt of it spent. */
const customs = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ key: `t${i + 1}`, executor: { kind: 'my-spender' } }));

function runOf(plan: Omit<TeamPlanInput, 'name'>) {
  const validation = validatePlan({ name: 'rules', ...plan });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-rules', T0);
}
const lost = (run: TeamRun, c: Claim, at: number) =>
  run.settle(c.key, c.fencingToken, { kind: 'lease-lost', workerIdentity: 'w' }, at);
const byType = (run: TeamRun, type: string) => run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);

describe('an attempt of a custom kind whose outcome is lost has unknown usage', () => {
  it('under maxTokens: charges at least its reservation, stops the run (usage-unknown) and sends the task to adjudication', () => {
    const run = runOf({
      teammates: 1,
      retry: { maxAttempts: 5, backoffMs: 0 },
      budget: { maxTokens: 1_000 },
      tasks: [{ key: 'a', estimate: { tokens: 200 }, executor: { kind: 'my-spender' } }],
    });
    const [a] = run.claim(T0);
    lost(run, a, T0 + 10);
    const budget = run.budgetView(T0 + 10);
    expect(budget).toMatchObject({
      stopped: true,
      reason: 'usage-unknown',
      usageUnknown: true,
      used: { tasks: 1, tokens: 200 },
    });
    expect(run.tasksPage()[0].status).toBe('adjudication');
    expect(run.adjudicationsView()[0]).toMatchObject({ code: 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED' });
    expect(run.adjudicationsView()[0].reason).toContain('usage-unknown');
    expect(run.claim(T0 + 20)).toEqual([]);
    expect(byType(run, 'run:budget-exhausted')).toMatchObject([{ reason: 'usage-unknown' }]);
  });

  it('under maxUsd too; a run stopped this way ends budget_stopped once the adjudication is decided', () => {
    const run = runOf({ teammates: 2, budget: { maxUsd: 1 }, tasks: customs(3) });
    const [a, b] = run.claim(T0);
    lost(run, a, T0 + 5);
    expect(run.budgetView(T0 + 5)).toMatchObject({ reason: 'usage-unknown', usageUnknown: true, used: { usd: 0.5 } });
    // The other attempt that was already out settles normally; nothing new starts.
    run.settle(b.key, b.fencingToken, { kind: 'completed', usage: { inputTokens: 1, costUsd: 0.01 } }, T0 + 6);
    expect(run.tasksPage().map((t) => t.status)).toEqual(['adjudication', 'succeeded', 'skipped']);
    run.adjudicate({ key: 't1', decision: 'reject', decisionId: 'd1' }, T0 + 7);
    expect(run.finish(T0 + 8)).toMatchObject({ status: 'budget_stopped', budgetReason: 'usage-unknown' });
  });

  it('without a token or dollar limit: charged its reservation, marked unknown, and leased again', () => {
    const run = runOf({ teammates: 1, budget: { maxTasks: 10 }, tasks: customs(1) });
    const [a] = run.claim(T0);
    lost(run, a, T0 + 5);
    expect(run.budgetView(T0 + 5)).toMatchObject({ stopped: false, usageUnknown: true });
    expect(run.claim(T0 + 6)).toHaveLength(1);
  });

  it('the five-attempts scenario of the issue no longer reports a success under its token limit', () => {
    const run = runOf({
      teammates: 1,
      retry: { maxAttempts: 5, backoffMs: 0 },
      budget: { maxTokens: 1_000 },
      tasks: customs(1),
    });
    const [a] = run.claim(T0);
    lost(run, a, T0 + 1);
    expect(run.finish(T0 + 2).status).not.toBe('succeeded');
  });
});

describe('an attempt that never started has no side effects', () => {
  it('on the wall-clock stop: released without adjudication, not counted, its task skipped with the budget reason', () => {
    const run = runOf({ teammates: 2, budget: { maxWallMs: 1_000, maxTasks: 10 }, tasks: noops(2) });
    const [started, queued] = run.claim(T0);
    run.wallExpired(T0 + 1_000);
    expect(run.drainCancellations().map((c) => c.key)).toEqual(['t1', 't2']);
    // t2 was still scheduled when cancelled (Temporal reports no evidence): not started.
    run.settle(
      queued.key,
      queued.fencingToken,
      { kind: 'not-started', reason: null, message: 'cancelled before a worker started the attempt' },
      T0 + 1_001,
    );
    run.settle(started.key, started.fencingToken, { kind: 'cancelled', workerIdentity: 'w' }, T0 + 1_002);
    const tasks = run.tasksPage();
    expect(tasks[1]).toMatchObject({
      key: 't2',
      status: 'skipped',
      skipReason: 'budget_stopped: max-wall-ms',
      attempts: 0,
    });
    expect(tasks[0]).toMatchObject({ key: 't1', status: 'adjudication' });
    expect(run.adjudicationsView().map((r) => r.key)).toEqual(['t1']);
    expect(run.status(T0 + 1_002).executions).toBe(1);
    expect(run.budgetView(T0 + 1_002).used.tasks).toBe(1);
  });

  it('a human interruption of an attempt not started yet still goes to adjudication: a person asked', () => {
    const run = runOf({ teammates: 1, tasks: noops(1) });
    const [a] = run.claim(T0);
    run.interrupt({ key: 't1', fencingToken: a.fencingToken, actor: 'alice' }, T0 + 1);
    run.settle(
      a.key,
      a.fencingToken,
      { kind: 'not-started', reason: null, message: 'cancelled before a worker started the attempt' },
      T0 + 2,
    );
    expect(run.tasksPage()[0].status).toBe('adjudication');
  });
});

describe("abortRun keeps the operator's code", () => {
  it('puts the code on the adjudications it creates', () => {
    const run = runOf({ teammates: 2, tasks: noops(2) });
    const [a, b] = run.claim(T0);
    expect(run.abort({ code: 'DEPLOY_FREEZE', reason: 'freeze' }, T0 + 1)).toMatchObject({ ok: true, activeClaims: 2 });
    run.settle(a.key, a.fencingToken, { kind: 'cancelled', workerIdentity: 'w' }, T0 + 2);
    run.settle(b.key, b.fencingToken, { kind: 'cancelled', workerIdentity: 'w' }, T0 + 3);
    expect(run.adjudicationsView().map((r) => r.code)).toEqual(['DEPLOY_FREEZE', 'DEPLOY_FREEZE']);
    expect(byType(run, 'task:adjudication-required').map((e) => e.code)).toEqual(['DEPLOY_FREEZE', 'DEPLOY_FREEZE']);
  });

  it('defaults to TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', () => {
    const run = runOf({ tasks: noops(1) });
    const [a] = run.claim(T0);
    run.abort({}, T0 + 1);
    run.settle(a.key, a.fencingToken, { kind: 'cancelled', workerIdentity: 'w' }, T0 + 2);
    expect(run.adjudicationsView()[0].code).toBe('TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED');
  });

  it.each(['deploy_freeze', 'A'.repeat(65), '', 'DEPLOY FREEZE', 'X-1'])(
    'refuses code %j (update: invalid_request; signal: control:rejected)',
    (code) => {
      const run = runOf({ tasks: noops(1) });
      run.claim(T0);
      expect(() => run.validateAbort({ code })).toThrow(/code/);
      expect(run.abort({ code }, T0 + 1)).toMatchObject({ ok: false });
      expect(byType(run, 'control:rejected')).toMatchObject([{ message: 'abortRun', field: 'code' }]);
      expect(run.status(T0 + 1).state).toBe('running');
    },
  );
});
