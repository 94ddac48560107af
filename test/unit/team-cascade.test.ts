import { describe, expect, it } from 'vitest';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';

const token = 'tok-0123456789abcdef';
const noop = (key: string) => ({ key, executor: { kind: 'noop' } });

/** A child run as its parent starts it: governed by an operator the parent's actor is not, its plan stamped. */
function childRun(extra: object = {}) {
  const validation = validatePlan({
    name: 'child',
    teamDepth: 1,
    governance: { operators: ['ops'] },
    parent: { run: 'root', key: 'A', fencingToken: 1, token },
    tasks: [
      { key: 'long', executor: { kind: 'shell', command: 'sleep 60' } },
      { key: 'sub', executor: { kind: 'team', plan: { name: 'grand', tasks: [noop('g')] } } },
    ],
    ...extra,
  });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  const run = TeamRun.start(validation.plan, 'root/A#1', 0);
  expect(run.claim(0).map((c) => c.key)).toEqual(['long', 'sub']);
  return run;
}

const interrupt = {
  code: 'TEAM_TASK_HUMAN_INTERRUPTED',
  actor: 'lead',
  reason: 'interrupted in the parent run root, task A#1: wrong plan',
  requireAdjudication: true,
};

describe("who may cascade: the parent's token, never a name", () => {
  it("refuses a cascade with another token, and an actor not in the child's governance", () => {
    const run = childRun();
    expect(run.abort({ ...interrupt, cascade: { token: 'tok-not-the-parents', interrupt: true } }, 1)).toMatchObject({
      ok: false,
      reason: 'forbidden',
    });
    expect(run.abort({ ...interrupt }, 1)).toMatchObject({ ok: false, reason: 'forbidden' });
    expect(run.activeCount).toBe(2);
    expect(run.drainCancellations()).toEqual([]);
  });

  it("takes the parent's interrupt: its attempts go to adjudication naming it, it passes it down, and it does not wait", () => {
    const run = childRun();
    expect(run.abort({ ...interrupt, cascade: { token, interrupt: true } }, 1)).toMatchObject({ ok: true });
    const cancels = run.drainCancellations();
    // The grandchild gets the same interrupt, unchanged: the reason names where it began.
    expect(cancels.find((c) => c.key === 'sub')?.childAbort).toEqual({
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'lead',
      reason: interrupt.reason,
      interrupt: true,
    });
    run.settle('long', 1, { kind: 'cancelled' }, 2);
    run.settle('sub', 1, { kind: 'cancelled' }, 2);
    const records = run.adjudicationsView();
    expect(records.map((r) => [r.key, r.code, r.actor, r.reason])).toEqual([
      ['long', interrupt.code, 'lead', interrupt.reason],
      ['sub', interrupt.code, 'lead', interrupt.reason],
    ]);
    // awaitAdjudication is on (the default), but the decision is the parent's: the run is done.
    expect(run.phase()).toBe('done');
  });

  it('a root plan cannot name a parent; a child plan may not bring its own (the stamp is the parent run’s)', () => {
    const root = validatePlan({
      name: 'r',
      parent: { run: 'x', key: 'k', fencingToken: 1, token },
      tasks: [noop('a')],
    });
    expect(root.ok ? [] : root.problems.map((p) => [p.path, p.code])).toEqual([['parent', 'parent_not_allowed']]);
    const own = { name: 'c', parent: { run: 'x', key: 'k', fencingToken: 1, token }, tasks: [noop('a')] };
    const parent = validatePlan({ name: 'p', tasks: [{ key: 't', executor: { kind: 'team', plan: own } }] });
    if (!parent.ok) throw new Error(formatProblems(parent.problems));
    expect(parent.plan.tasks[0].executor).not.toHaveProperty('plan.parent');
  });
});
