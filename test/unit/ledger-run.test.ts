import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import type { Claim } from '../../src/team/types';

const T0 = 1_700_000_000_000;

/** A team run whose plan names a shared ledger, on a fake clock. */
function runWithLedger(plan: Partial<TeamPlanInput> = {}) {
  const validation = validatePlan({
    name: 'shared',
    teammates: 2,
    budget: { ledger: 'company', maxTasks: 10 },
    tasks: [
      { key: 'a', estimate: { tokens: 300, usd: 0.2 }, executor: { kind: 'noop' } },
      { key: 'b', executor: { kind: 'noop' } },
    ],
    ...plan,
  });
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
  const run = TeamRun.start(validation.plan, 'wf-shared', T0);
  const notStarted = (c: Claim, reason: 'ledger-max-usd' | null) =>
    run.settle(c.key, c.fencingToken, { kind: 'not-started', reason, message: 'ledger said no' }, T0 + 10);
  return { run, notStarted };
}

describe('a team run that spends from a shared ledger', () => {
  it('hands each claim the task estimate (what a run recorded before grants had the ledger hold)', () => {
    const { run } = runWithLedger();
    expect(run.ledgerId).toBe('company');
    expect(run.claim(T0).map((c) => [c.key, c.estimate])).toEqual([
      ['a', { tokens: 300, usd: 0.2 }],
      ['b', { tokens: 0, usd: 0 }],
    ]);
  });

  it('stops with the ledger reason when the ledger refuses an attempt for good, and that attempt never counts', () => {
    const { run, notStarted } = runWithLedger();
    const [a, b] = run.claim(T0);
    notStarted(a, 'ledger-max-usd');
    const view = run.tasksPage().find((t) => t.key === 'a')!;
    expect(view).toMatchObject({ status: 'skipped', attempts: 0 });
    expect(run.budgetView(T0).used.tasks).toBe(1);
    expect(run.budgetView(T0)).toMatchObject({ stopped: true, reason: 'ledger-max-usd' });
    expect(run.claim(T0 + 20)).toEqual([]);
    run.settle(b.key, b.fencingToken, { kind: 'completed' }, T0 + 30);
    expect(run.finish(T0 + 40)).toMatchObject({
      status: 'budget_stopped',
      budgetReason: 'ledger-max-usd',
      executions: 1,
    });
  });

  it('returns a task whose attempt was stopped while waiting for a slot to ready, with a fresh fencing token next time', () => {
    const { run, notStarted } = runWithLedger();
    const [a] = run.claim(T0);
    notStarted(a, null);
    expect(run.tasksPage().find((t) => t.key === 'a')).toMatchObject({ status: 'ready', attempts: 0 });
    expect(run.budgetView(T0).reserved.tokens).toBe(0);
    const again = run.claim(T0 + 20).find((c) => c.key === 'a')!;
    expect(again.fencingToken).toBeGreaterThan(a.fencingToken);
    expect(again.attempt).toBe(1);
  });

  it('skips, not adjudicates, an attempt an abort stopped before it had a slot', () => {
    const { run, notStarted } = runWithLedger();
    const [a] = run.claim(T0);
    run.abort({ reason: 'session-budget-exhausted', actor: 'ledger:company' }, T0 + 5);
    expect(run.drainCancellations().map((c) => c.key)).toContain('a');
    notStarted(a, null);
    expect(run.tasksPage().find((t) => t.key === 'a')).toMatchObject({ status: 'skipped', attempts: 0 });
    expect(run.adjudicationsView()).toEqual([]);
  });

  it('sends to adjudication an attempt a human took over while it waited for a slot, as any takeover', () => {
    const { run, notStarted } = runWithLedger();
    const [a] = run.claim(T0);
    run.interrupt({ key: 'a', fencingToken: a.fencingToken, actor: 'alice' }, T0 + 5);
    notStarted(a, null);
    expect(run.adjudicationsView().map((r) => [r.key, r.code])).toEqual([['a', 'TEAM_TASK_HUMAN_INTERRUPTED']]);
  });

  it('lets its own ledger abort it even when governance names other operators, once the ledger confirms it', () => {
    const { run } = runWithLedger({ governance: { operators: ['alice'] } });
    expect(() => run.validateAbort({ actor: 'ledger:other' })).toThrow(/not one of governance.operators/);
    // The ledger sends its aborts as signals: an update naming it is anyone's words.
    expect(() => run.validateAbort({ actor: 'ledger:company' })).toThrow(/signals, not updates/);
    const claim = { reason: 'session-budget-exhausted', actor: 'ledger:company' };
    expect(run.abortNeedsLedger(claim)).toEqual({ since: T0 });
    expect(run.abortNeedsLedger({ actor: 'alice' })).toBeNull();
    const denied = { confirmed: false, why: 'the last abort of ledger company did not name this run' };
    expect(run.abort(claim, T0, denied)).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(run.eventsView().events.map((e) => e.type)).not.toContain('run:abort-requested');
    expect(run.eventsView().events.at(-1)).toMatchObject({ type: 'control:rejected', message: 'abortRun' });
    expect(run.abort(claim, T0, { confirmed: true, why: 'ledger company aborted it' })).toMatchObject({ ok: true });
    expect(run.abortNeedsLedger(claim)).toBeNull();
  });

  it('takes an abort naming its ledger at its word on a run without operators, and in histories from before', () => {
    expect(runWithLedger().run.abortNeedsLedger({ actor: 'ledger:company' })).toBeNull();
    const { run } = runWithLedger({ governance: { operators: ['alice'] } });
    expect(run.abort({ reason: 'session-budget-exhausted', actor: 'ledger:company' }, T0)).toMatchObject({ ok: true });
  });
});
