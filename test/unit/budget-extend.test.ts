import { describe, expect, it } from 'vitest';
import { validatePlan } from '../../src/plan/validate';
import { Budget } from '../../src/team/budget';
import { TeamRun } from '../../src/team/run';
import { codeOf } from '../helpers/team-run';

describe('Budget.extend: a running attempt asks for more', () => {
  it('grants an ask that fits what neither usage nor any reservation holds, all of it', () => {
    const budget = Budget.create({ maxTokens: 100 });
    const first = budget.reserve(undefined, 2);
    expect(first).toEqual({ ok: true, reservation: { tokens: 50, usd: 0 } });
    expect(budget.extend({ tokens: 50 })).toEqual({ ok: true, extension: { tokens: 50, usd: 0 } });
    expect(budget.view(0, 0).reserved.tokens).toBe(100);
  });

  it('refuses an ask past what remains, and grants no part of it', () => {
    const budget = Budget.create({ maxTokens: 100, maxUsd: 1 });
    budget.reserve({ tokens: 90, usd: 0.5 }, 1);
    expect(budget.extend({ tokens: 11 })).toEqual({ ok: false, reason: 'max-tokens' });
    expect(budget.extend({ usd: 0.6 })).toEqual({ ok: false, reason: 'max-usd' });
    expect(budget.view(0, 0).reserved).toEqual({ tokens: 90, usd: 0.5 });
    expect(budget.extend({ tokens: 10, usd: 0.5 })).toEqual({ ok: true, extension: { tokens: 10, usd: 0.5 } });
  });

  it('settling the attempt with its reservation and extensions together releases both and charges the usage', () => {
    const budget = Budget.create({ maxTokens: 100 });
    budget.reserve({ tokens: 30 }, 1);
    budget.extend({ tokens: 20 });
    budget.settle({ tokens: 50, usd: 0 }, { outputTokens: 45 });
    expect(budget.view(0, 0)).toMatchObject({ used: { tokens: 45 }, reserved: { tokens: 0 } });
  });

  it('grants without limit where none is set, and nothing once the budget stopped', () => {
    const budget = Budget.create({});
    expect(budget.extend({ tokens: 1_000_000 }).ok).toBe(true);
    budget.stop('max-wall-ms');
    expect(budget.extend({ tokens: 1 })).toEqual({ ok: false, reason: 'max-wall-ms' });
  });

  it('release gives back an extension the shared ledger refused', () => {
    const budget = Budget.create({ maxTokens: 100 });
    budget.extend({ tokens: 40 });
    budget.release({ tokens: 40, usd: 0 });
    expect(budget.view(0, 0).reserved.tokens).toBe(0);
  });
});

describe('extendReservation on a run', () => {
  function running(governance?: { operators: string[] }) {
    const validation = validatePlan({
      name: 'extend',
      teammates: 2,
      budget: { maxTokens: 100 },
      ...(governance ? { governance } : {}),
      tasks: [
        { key: 'a', executor: { kind: 'noop' } },
        { key: 'b', executor: { kind: 'noop' } },
      ],
    });
    if (!validation.ok) throw new Error('plan');
    const run = TeamRun.start(validation.plan, 'wf-extend', 0);
    const [a, b] = run.claim(0);
    return { run, a, b };
  }

  it('joins the attempt: its reservation grows, the event says so, and settlement releases it all', () => {
    const { run, a, b } = running();
    run.settle(b.key, b.fencingToken, { kind: 'completed', usage: { outputTokens: 10 } }, 1);
    expect(run.extendReservation({ key: 'a', fencingToken: a.fencingToken, tokens: 30 }, 2)).toEqual({
      ok: true,
      granted: { tokens: 80, usd: 0 },
    });
    expect(run.eventsView().events.at(-1)).toMatchObject({
      type: 'budget:reservation-extended',
      key: 'a',
      tokens: 30,
      reservation: { tokens: 80, usd: 0 },
    });
    run.settle(a.key, a.fencingToken, { kind: 'completed', usage: { outputTokens: 75 } }, 3);
    expect(run.budgetView(3)).toMatchObject({ used: { tokens: 85 }, reserved: { tokens: 0 } });
  });

  it('is refused with the budget reason past what remains, in the validator (nothing reaches history)', () => {
    const { run, a } = running();
    expect(codeOf(() => run.validateExtendReservation({ key: 'a', fencingToken: a.fencingToken, tokens: 1 }))).toBe(
      'max-tokens',
    );
  });

  it('refuses a stale token, an unknown task, and a person who is not an operator', () => {
    const { run, a } = running({ operators: ['ops'] });
    const ask = { key: 'a', fencingToken: a.fencingToken + 1, tokens: 0 };
    expect(codeOf(() => run.validateExtendReservation(ask))).toBe('stale_attempt');
    expect(codeOf(() => run.validateExtendReservation({ ...ask, key: 'zz' }))).toBe('not_found');
    const asPerson = { key: 'a', fencingToken: a.fencingToken, tokens: 0, actor: 'mallory' };
    expect(codeOf(() => run.validateExtendReservation(asPerson))).toBe('forbidden');
    expect(() => run.validateExtendReservation({ ...asPerson, actor: 'ops' })).not.toThrow();
  });
});

describe('extendReservation with turns: agent model calls admitted by the run', () => {
  function running(budget: Record<string, unknown>, tasks: Array<Record<string, unknown>>) {
    const validation = validatePlan({ name: 'turns', teammates: 3, budget, tasks });
    if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
    const run = TeamRun.start(validation.plan, 'wf-turns', 0);
    return { run, claims: run.claim(0) };
  }
  const agent = (key: string) => ({ key, executor: { kind: 'agent', model: 'm', prompt: 'Go' } });
  const team = (key: string) => ({
    key,
    executor: { kind: 'team', plan: { name: `c-${key}`, tasks: [agent('x')] } },
  });

  it('admits calls up to budget.maxTurns across attempts, counts them in used.turns, then refuses max-turns', () => {
    const { run, claims } = running({ maxTurns: 3 }, [agent('a'), agent('b')]);
    const [a, b] = claims;
    expect(a.grant.turns).toBe(true);
    const ask = (c: typeof a) => ({ key: c.key, fencingToken: c.fencingToken, turns: 1 });
    run.extendReservation(ask(a), 1);
    run.extendReservation(ask(b), 2);
    run.extendReservation(ask(a), 3);
    expect(run.budgetView(3)).toMatchObject({ used: { turns: 3 }, remaining: { turns: 0 } });
    expect(codeOf(() => run.validateExtendReservation(ask(b)))).toBe('max-turns');
    expect(codeOf(() => run.extendReservation(ask(a), 4))).toBe('max-turns');
    // A child run (which asks its parent for tokens) still has its turns checked in the validator.
    expect(codeOf(() => run.validateExtendReservation(ask(b), true))).toBe('max-turns');
    expect(run.budgetView(4).used.turns).toBe(3);
  });

  it('a run without a turn limit does not ask for each call', () => {
    const { claims } = running({}, [agent('a')]);
    expect(claims[0].grant.turns).toBeUndefined();
  });

  it('budget.tree.maxTurns: children take shares of what is left, held while they run, charged what they report', () => {
    const { run, claims } = running({ tree: { maxTurns: 10 } }, [team('A'), team('B'), agent('c')]);
    const [A, B, c] = claims;
    run.extendReservation({ key: c.key, fencingToken: c.fencingToken, turns: 2 }, 1);
    // 8 left, two team attempts in flight without a share: 4 each.
    expect(run.carveTree(A.key, A.fencingToken)).toEqual({ maxTurns: 4 });
    expect(run.carveTree(B.key, B.fencingToken)).toEqual({ maxTurns: 4 });
    expect(run.budgetView(1).tree).toMatchObject({ turns: 2, turnsHeldByChildren: 8 });
    // All of the tree is used or held: the run's own next call is refused.
    const ask = { key: c.key, fencingToken: c.fencingToken, turns: 1 };
    expect(codeOf(() => run.validateExtendReservation(ask))).toBe('max-turns');
    // A reports 1 call: 3 of its share come back. B's end is unknown: all 4 of its hold are charged.
    const ended = (turns: number) => ({
      budget: { used: { tasks: 1 }, tree: { spawnedTasks: 0, heldByChildren: 0, turns } },
    });
    run.chargeTree(A.key, A.fencingToken, ended(1) as never);
    run.chargeTree(B.key, B.fencingToken, null);
    expect(run.budgetView(2).tree).toMatchObject({ turns: 2 + 1 + 4, turnsHeldByChildren: 0 });
    run.extendReservation(ask, 3);
    expect(run.budgetView(3).tree?.turns).toBe(8);
  });
});
