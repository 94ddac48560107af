import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { Budget } from '../../src/team/budget';
import { TeamRun } from '../../src/team/run';
import type { Claim } from '../../src/team/types';

const T0 = 1_700_000_000_000;
const agent = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  executor: { kind: 'agent', model: 'm', prompt: 'work', maxTokens: 1_000 },
  ...extra,
});

function runOf(plan: Omit<TeamPlanInput, 'name'>, patched?: (id: string) => boolean) {
  const validation = validatePlan({ name: 'lost-bound', ...plan });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  const run = TeamRun.start(validation.plan, 'wf-lost', T0);
  if (patched) run.usePatches(patched);
  return run;
}
const lost = (run: TeamRun, c: Claim, at: number) =>
  run.settle(c.key, c.fencingToken, { kind: 'lease-lost', workerIdentity: 'w' }, at);
const events = (run: TeamRun, type: string) => run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);
/** What an agent's worker asks before each model call once the last answer's usage is reported. */
const ask = (run: TeamRun, c: Claim, tokens: number, usd: number, at: number) =>
  run.extendReservation({ key: c.key, fencingToken: c.fencingToken, tokens, usd }, at);

describe('a lost attempt is charged what it can have spent, and the run goes on', () => {
  it('an agent under maxTokens and maxUsd: charged its usage so far plus the call in flight, then leased again', () => {
    const run = runOf({
      teammates: 2,
      budget: { maxTokens: 200_000, maxUsd: 1 },
      tasks: [agent('writer'), agent('reviewer')],
    });
    const [w, r] = run.claim(T0);
    // The first call's grant, not a fair share of the budget.
    expect(w.grant).toEqual({ tokens: 1_000, usd: 0, pricesRequired: true });
    expect(run.budgetView(T0).reserved).toEqual({ tokens: 2_000, usd: 0 });
    // Call 1 reserved $0.002 before it was made; answered with 700 tokens; call 2 reserves what call 1 spent.
    ask(run, w, 0, 0.002, T0 + 1);
    ask(run, w, 700, 0.0014, T0 + 2);
    // The worker dies while call 2 is in flight: 700 journaled + call 2's 1,000 tokens.
    lost(run, w, T0 + 3);
    const budget = run.budgetView(T0 + 3);
    expect(budget).toMatchObject({ stopped: false, usageUnknown: false, used: { tokens: 1_700, usd: 0.0034 } });
    expect(budget.reserved).toEqual({ tokens: 1_000, usd: 0 });
    expect(events(run, 'lease:expired')).toMatchObject([
      { key: 'writer', charged: { tokens: 1_700, usd: 0.0034 }, usageUnknown: false },
    ]);
    const [again] = run.claim(T0 + 4);
    expect(again).toMatchObject({ key: 'writer', fencingToken: w.fencingToken + 1 });
    expect(events(run, 'run:budget-exhausted')).toEqual([]);
    run.settle(r.key, r.fencingToken, { kind: 'completed', usage: { inputTokens: 10, costUsd: 0.00001 } }, T0 + 5);
    run.settle(again.key, again.fencingToken, { kind: 'completed', usage: { inputTokens: 10, costUsd: 0.00001 } }, 6);
    expect(run.finish(T0 + 7)).toMatchObject({ status: 'succeeded', budgetReason: null });
  });

  it('a shell task that reported usage lines: charged its grant and extensions, never more, and leased again', () => {
    const run = runOf({
      teammates: 2,
      budget: { maxTokens: 10_000 },
      tasks: [{ key: 'sh', executor: { kind: 'shell', command: 'true' } }],
    });
    const [sh] = run.claim(T0);
    expect(sh.grant).toEqual({ tokens: 5_000, usd: null });
    ask(run, sh, 1_200, 0, T0 + 1);
    lost(run, sh, T0 + 2);
    expect(run.budgetView(T0 + 2)).toMatchObject({ stopped: false, usageUnknown: false, used: { tokens: 6_200 } });
    expect(run.claim(T0 + 3)).toMatchObject([{ key: 'sh' }]);
  });

  it('a task that spends nothing (noop, sleep) is charged nothing', () => {
    const run = runOf({ teammates: 1, budget: { maxTokens: 100 }, tasks: [{ key: 's', executor: { kind: 'noop' } }] });
    const [s] = run.claim(T0);
    lost(run, s, T0 + 1);
    expect(run.budgetView(T0 + 1)).toMatchObject({ stopped: false, used: { tokens: 0 }, reserved: { tokens: 0 } });
  });

  it('a custom kind stays unbounded: usage-unknown, as before', () => {
    const run = runOf({ teammates: 1, budget: { maxTokens: 100 }, tasks: [{ key: 'c', executor: { kind: 'mine' } }] });
    const [c] = run.claim(T0);
    lost(run, c, T0 + 1);
    expect(run.budgetView(T0 + 1)).toMatchObject({ stopped: true, reason: 'usage-unknown', usageUnknown: true });
  });

  it('a history recorded before the rule replays as it ran: the agent took a fair share and stopped the run', () => {
    const run = runOf({ teammates: 2, budget: { maxTokens: 10_000 }, tasks: [agent('a'), agent('b')] }, () => false);
    const [a] = run.claim(T0);
    expect(a.grant).toEqual({ tokens: 5_000, usd: null });
    lost(run, a, T0 + 1);
    expect(run.budgetView(T0 + 1)).toMatchObject({ stopped: true, reason: 'usage-unknown' });
  });
});

describe('claims fit exactly in dollars', () => {
  it('the last free teammate gets exactly what remains, however a nano-dollar sum fell (the maxUsd stall)', () => {
    // Every remainder from 1 to 999 nano-dollars past a whole micro-dollar: the fair share used to be rounded up
    // past what remained and refused, and the last teammate waited for an attempt to settle.
    for (let spent = 1; spent < 1_000; spent++) {
      const budget = Budget.create({ maxUsd: 1 });
      const first = budget.reserve({ usd: 0 }, 2);
      expect(first.ok).toBe(true);
      budget.settle({ tokens: 0, usd: 0 }, { inputTokens: 1, costUsd: 0.000_3 + spent / 1e9 });
      const last = budget.reserve(undefined, 1);
      expect(last).toEqual({
        ok: true,
        reservation: { tokens: 0, usd: Math.round((0.999_7 - spent / 1e9) * 1e9) / 1e9 },
      });
      expect(budget.view(0, 0).remaining.usd).toBe(0);
    }
  });

  it('an estimate of exactly what remains fits; a nano-dollar more than half a micro-dollar past it does not', () => {
    const budget = Budget.create({ maxUsd: 0.333_031 });
    expect(budget.reserve({ usd: 0.333_031 }, 1).ok).toBe(true);
    const other = Budget.create({ maxUsd: 0.333_031 });
    expect(other.reserve({ usd: 0.333_031_501 }, 1)).toEqual({ ok: false, reason: 'max-usd' });
  });
});

describe('a task waiting for budget says why', () => {
  it('names what it needs, what is free and who holds the rest, in tasks and status', () => {
    const run = runOf({ teammates: 3, budget: { maxTokens: 2_500 }, tasks: [agent('a'), agent('b'), agent('c')] });
    expect(run.claim(T0).map((c) => c.key)).toEqual(['a', 'b']);
    const waiting =
      'waiting for budget: needs 1,000 tokens, 500 tokens free, 2,000 tokens reserved by a (1,000 tokens), b (1,000 tokens)';
    expect(run.tasksPage().find((t) => t.key === 'c')?.waiting).toBe(waiting);
    expect(run.status(T0).waitingForBudget).toEqual([{ key: 'c', waiting }]);
    expect(run.tasksPage().find((t) => t.key === 'a')?.waiting).toBeUndefined();
    const a = run.activeClaims().find((c) => c.key === 'a')!;
    run.settle('a', a.fencingToken, { kind: 'completed', usage: { outputTokens: 100 } }, T0 + 1);
    expect(run.claim(T0 + 2).map((c) => c.key)).toEqual(['c']);
    expect(run.status(T0 + 2).waitingForBudget).toBeUndefined();
  });
});
