import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { priceUsage } from '../../src/activities/pricing';
import { loadPlanFile } from '../../src/plan/load';
import type { TeamPlanInput } from '../../src/plan/schema';
import { validatePlan } from '../../src/plan/validate';
import { Budget } from '../../src/team/budget';
import { TeamRun } from '../../src/team/run';
import type { Claim } from '../../src/team/types';

const T0 = 1_700_000_000_000;

/** A team run on a fake clock: every rule of the budget, without a server. */
function teamRun(plan: Omit<TeamPlanInput, 'name'>) {
  const validation = validatePlan({ name: 'budget', ...plan });
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
  let now = T0;
  const run = TeamRun.start(validation.plan, 'wf-budget', now);
  return {
    run,
    claim: () => run.claim(now),
    advance: (ms: number) => (now += ms),
    now: () => now,
    complete: (c: Claim, usage?: object) => run.settle(c.key, c.fencingToken, { kind: 'completed', usage }, now),
    fail: (c: Claim, usage?: object) =>
      run.settle(c.key, c.fencingToken, { kind: 'failed', message: 'boom', nonRetryable: false, usage }, now),
    reservations: () => claimed(run).map((e) => (e.reservation as { tokens: number }).tokens),
    reservationOf: (c: Claim) =>
      (
        claimed(run).find((e) => e.key === c.key && e.fencingToken === c.fencingToken)!.reservation as {
          tokens: number;
        }
      ).tokens,
  };
}

const claimed = (run: TeamRun) => run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === 'task:claimed');

const noops = (n: number, extra: object = {}) =>
  Array.from({ length: n }, (_, i) => ({ key: `t${i + 1}`, executor: { kind: 'noop' }, ...extra }));

describe('Budget (the ledger on its own)', () => {
  it('reserves the estimate when a task has one, and refuses what does not fit', () => {
    const budget = Budget.create({ maxTokens: 2_500 });
    expect(budget.reserve({ tokens: 1_000 }, 4)).toEqual({ ok: true, reservation: { tokens: 1_000, usd: 0 } });
    expect(budget.reserve({ tokens: 1_000 }, 3)).toEqual({ ok: true, reservation: { tokens: 1_000, usd: 0 } });
    expect(budget.reserve({ tokens: 1_000 }, 2)).toEqual({ ok: false, reason: 'max-tokens' });
    expect(budget.view(T0, T0).reserved.tokens).toBe(2_000);
    expect(budget.view(T0, T0).remaining.tokens).toBe(500);
  });

  it('gives a task without an estimate a fair share of what remains: ceil(remaining / free slots)', () => {
    const budget = Budget.create({ maxTokens: 100, maxUsd: 1 });
    const first = budget.reserve(undefined, 3);
    expect(first).toEqual({ ok: true, reservation: { tokens: 34, usd: 0.333334 } });
    const second = budget.reserve(undefined, 2);
    expect(second).toEqual({ ok: true, reservation: { tokens: 33, usd: 0.333333 } });
    const third = budget.reserve(undefined, 1);
    expect(third).toEqual({ ok: true, reservation: { tokens: 33, usd: 0.333333 } });
    expect(budget.view(T0, T0).reserved).toEqual({ tokens: 100, usd: 1 });
    expect(budget.reserve(undefined, 1)).toEqual({ ok: false, reason: 'max-tokens' });
  });

  it('releases the reservation at settlement and charges what the attempt reported instead', () => {
    const budget = Budget.create({ maxTokens: 1_000 });
    const r = budget.reserve({ tokens: 400 }, 1);
    if (!r.ok) throw new Error('expected a reservation');
    expect(budget.settle(r.reservation, { inputTokens: 100, outputTokens: 50, cacheTokens: 20 })).toEqual({
      ok: true,
      tokens: 170,
      usd: 0,
    });
    const view = budget.view(T0, T0);
    expect(view.used.tokens).toBe(170);
    expect(view.reserved.tokens).toBe(0);
    expect(view.remaining.tokens).toBe(830);
  });

  it('charges an overrun truthfully, past the limit', () => {
    const budget = Budget.create({ maxTokens: 100 });
    const r = budget.reserve(undefined, 1);
    if (!r.ok) throw new Error('expected a reservation');
    budget.settle(r.reservation, { inputTokens: 150 });
    expect(budget.view(T0, T0).used.tokens).toBe(150);
    expect(budget.view(T0, T0).remaining.tokens).toBe(0);
    expect(budget.reserve({ tokens: 0 }, 1)).toEqual({ ok: false, reason: 'max-tokens' });
  });

  it('fails closed on usage for a model without a price while maxUsd is set', () => {
    const capped = Budget.create({ maxUsd: 1 });
    const r = capped.reserve(undefined, 1);
    if (!r.ok) throw new Error('expected a reservation');
    expect(capped.settle(r.reservation, { inputTokens: 10, model: 'mystery' })).toEqual({
      ok: false,
      reason: 'unpriced-usage',
    });
    expect(capped.view(T0, T0).used.tokens).toBe(10);

    const uncapped = Budget.create({ maxTokens: 100 });
    const u = uncapped.reserve(undefined, 1);
    if (!u.ok) throw new Error('expected a reservation');
    expect(uncapped.settle(u.reservation, { inputTokens: 10, model: 'mystery' }).ok).toBe(true);
  });

  it('counts attempts against maxTasks when they are reserved', () => {
    const budget = Budget.create({ maxTasks: 2 });
    expect(budget.reserve(undefined, 8).ok).toBe(true);
    expect(budget.reserve(undefined, 7).ok).toBe(true);
    expect(budget.reserve(undefined, 6)).toEqual({ ok: false, reason: 'max-tasks' });
    expect(budget.view(T0, T0).remaining.tasks).toBe(0);
  });
});

describe('TeamRun budget rules (fake clock)', () => {
  it('holds maxTasks exactly under 16 teammates, then stops with max-tasks', () => {
    const t = teamRun({ teammates: 16, budget: { maxTasks: 3 }, tasks: noops(10) });
    const claims = t.claim();
    expect(claims).toHaveLength(3);
    expect(t.claim()).toHaveLength(0);
    expect(t.run.budgetView(t.now()).stopped).toBe(false);
    claims.forEach((c) => t.complete(c));
    expect(t.claim()).toHaveLength(0);
    const result = t.run.finish(t.now());
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tasks', executions: 3 });
    expect(result.stats).toMatchObject({ succeeded: 3, skipped: 7 });
    expect(result.tasks.find((task) => task.key === 't4')?.skipReason).toBe('budget_stopped: max-tasks');
  });

  it('counts retries as executions: a doomed retry loop stops at maxTasks', () => {
    const t = teamRun({
      teammates: 4,
      retry: { maxAttempts: 100, backoffMs: 0 },
      budget: { maxTasks: 4 },
      tasks: noops(1),
    });
    let executions = 0;
    for (let claims = t.claim(); claims.length; claims = t.claim()) {
      executions += claims.length;
      claims.forEach((c) => t.fail(c));
    }
    expect(executions).toBe(4);
    expect(t.run.finish(t.now())).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tasks', executions: 4 });
  });

  it('gives every one of 16 free teammates a fair share, and all 16 start at once', () => {
    const t = teamRun({ teammates: 16, budget: { maxTokens: 160 }, tasks: noops(20) });
    const claims = t.claim();
    expect(claims).toHaveLength(16);
    expect(t.reservations()).toEqual(new Array(16).fill(10));
    expect(t.run.budgetView(t.now()).reserved.tokens).toBe(160);
    claims.forEach((c) => t.complete(c, { inputTokens: 10 }));
    expect(t.claim()).toHaveLength(0);
    expect(t.run.finish(t.now())).toMatchObject({
      status: 'budget_stopped',
      budgetReason: 'max-tokens',
      executions: 16,
    });
    expect(t.run.budgetView(t.now()).used.tokens).toBe(160);
  });

  it('never lets reservations exceed the limit while attempts come and go', () => {
    const t = teamRun({ teammates: 16, budget: { maxTokens: 160 }, tasks: noops(100) });
    let active = t.claim();
    let executions = active.length;
    while (active.length) {
      const view = t.run.budgetView(t.now());
      expect(view.used.tokens + view.reserved.tokens).toBeLessThanOrEqual(160);
      const [done, ...rest] = active;
      // An executor that keeps within its reservation (as an llm call capped by max_tokens would).
      t.complete(done, { inputTokens: Math.min(3, t.reservationOf(done)) });
      const more = t.claim();
      executions += more.length;
      active = [...rest, ...more];
    }
    const result = t.run.finish(t.now());
    expect(result.budget.used.tokens).toBe(160);
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tokens', executions });
  });

  it('charges an overrun truthfully and claims nothing more (maxTokens 2500 at 1000 a task)', () => {
    const t = teamRun({ teammates: 1, budget: { maxTokens: 2_500 }, tasks: noops(5) });
    let executions = 0;
    for (let claims = t.claim(); claims.length; claims = t.claim()) {
      executions += claims.length;
      claims.forEach((c) => t.complete(c, { inputTokens: 600, outputTokens: 400 }));
    }
    expect(executions).toBe(3);
    const result = t.run.finish(t.now());
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tokens' });
    expect(result.budget.used.tokens).toBe(3_000);
    expect(result.stats).toMatchObject({ succeeded: 3, skipped: 2 });
  });

  it('charges usage that arrives with a failure', () => {
    const t = teamRun({ retry: { maxAttempts: 2, backoffMs: 0 }, budget: { maxTokens: 10_000 }, tasks: noops(1) });
    for (let claims = t.claim(); claims.length; claims = t.claim())
      claims.forEach((c) => t.fail(c, { inputTokens: 70, outputTokens: 30 }));
    const result = t.run.finish(t.now());
    expect(result.status).toBe('failed');
    expect(result.budget.used.tokens).toBe(200);
    expect(result.tasks[0].usage).toMatchObject({ inputTokens: 140, outputTokens: 60 });
  });

  it('fails the task and stops the run on unpriced usage while maxUsd is set', () => {
    const t = teamRun({ teammates: 1, retry: { maxAttempts: 3 }, budget: { maxUsd: 5 }, tasks: noops(3) });
    const [first] = t.claim();
    t.complete(first, { inputTokens: 100, model: 'mystery' });
    expect(t.claim()).toHaveLength(0);
    const result = t.run.finish(t.now());
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'unpriced-usage' });
    expect(result.tasks.map((task) => [task.key, task.status, task.attempts])).toEqual([
      ['t1', 'failed', 1],
      ['t2', 'skipped', 0],
      ['t3', 'skipped', 0],
    ]);
    expect(result.tasks[0].lastError).toContain('"mystery" has no price');
  });

  it('waits for running attempts to free their reservations before giving up', () => {
    const t = teamRun({ teammates: 2, budget: { maxTokens: 1_000 }, tasks: noops(3, { estimate: { tokens: 400 } }) });
    const [a, b] = t.claim();
    expect(t.claim()).toHaveLength(0);
    expect(t.run.budgetView(t.now()).stopped).toBe(false);
    t.complete(a, { inputTokens: 100 });
    expect(t.claim().map((c) => c.key)).toEqual(['t3']);
    t.complete(b, { inputTokens: 100 });
    expect(t.run.budgetView(t.now()).stopped).toBe(false);
  });

  it('does not give up on a task that waits out its backoff while nothing runs', () => {
    const t = teamRun({
      teammates: 1,
      retry: { maxAttempts: 2, backoffMs: 1_000 },
      budget: { maxTokens: 1_000 },
      tasks: [
        { key: 'small', estimate: { tokens: 100 }, executor: { kind: 'noop' } },
        { key: 'big', estimate: { tokens: 950 }, executor: { kind: 'noop' } },
      ],
    });
    const [small] = t.claim();
    t.fail(small, { inputTokens: 100 });
    // "big" cannot fit (900 left), but "small" will once its backoff is over.
    expect(t.claim()).toHaveLength(0);
    expect(t.run.budgetView(t.now()).stopped).toBe(false);
    t.advance(1_000);
    expect(t.claim().map((c) => c.key)).toEqual(['small']);
  });

  describe('wall clock', () => {
    const plan = {
      teammates: 2,
      awaitAdjudication: false,
      budget: { maxWallMs: 5_000 },
      tasks: [
        { key: 'long', executor: { kind: 'sleep', ms: 60_000 } },
        { key: 'after', dependsOn: ['long'], executor: { kind: 'noop' } },
      ],
    };

    it('stops the run, cancels active attempts into adjudication and skips the rest', () => {
      const t = teamRun(plan);
      const [long] = t.claim();
      t.advance(5_000);
      t.run.wallExpired(t.now());
      expect(t.run.drainCancellations()).toEqual([{ key: 'long', fencingToken: long.fencingToken }]);
      t.run.settle('long', long.fencingToken, { kind: 'cancelled' }, t.now());
      const result = t.run.finish(t.now());
      expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-wall-ms' });
      expect(result.adjudications).toMatchObject([{ key: 'long', code: 'TEAM_WALL_BUDGET_EXHAUSTED' }]);
      expect(result.tasks.map((task) => task.status)).toEqual(['adjudication', 'skipped']);
    });

    it('never counts a result that arrives at or after the deadline as a success', () => {
      const t = teamRun(plan);
      const [long] = t.claim();
      t.advance(5_000);
      // The result is processed before the workflow's timer has fired.
      t.complete(long);
      const result = t.run.finish(t.now());
      expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-wall-ms' });
      expect(result.tasks.map((task) => task.status)).toEqual(['adjudication', 'skipped']);
      expect(result.adjudications[0].code).toBe('TEAM_WALL_BUDGET_EXHAUSTED');
    });

    it('claims nothing once the deadline has passed, even before the timer fires', () => {
      const t = teamRun({ ...plan, teammates: 1, tasks: noops(2) });
      const [first] = t.claim();
      t.advance(4_000);
      t.complete(first);
      t.advance(1_000);
      expect(t.claim()).toHaveLength(0);
      expect(t.run.budgetView(t.now())).toMatchObject({ stopped: true, reason: 'max-wall-ms' });
    });

    it('counts a result just before the deadline as a success', () => {
      const t = teamRun(plan);
      const [long] = t.claim();
      t.advance(4_999);
      t.complete(long);
      expect(t.run.tasksPage()[0].status).toBe('succeeded');
    });
  });

  it('shows limits, used, reserved and remaining in the budget view', () => {
    const t = teamRun({
      teammates: 2,
      budget: { maxTasks: 10, maxTokens: 1_000, maxUsd: 2, maxWallMs: 60_000 },
      tasks: noops(3),
    });
    const [a] = t.claim();
    t.complete(a, { inputTokens: 100, outputTokens: 50, costUsd: 0.25, model: 'm' });
    t.advance(1_500);
    expect(t.run.budgetView(t.now())).toEqual({
      limits: { maxTasks: 10, maxTokens: 1_000, maxUsd: 2, maxWallMs: 60_000 },
      used: { tasks: 2, tokens: 150, usd: 0.25, wallMs: 1_500, turns: 0 },
      reserved: { tokens: 500, usd: 1 },
      remaining: { tasks: 8, tokens: 350, usd: 0.75, wallMs: 58_500, turns: null },
      stopped: false,
      reason: null,
      usageUnknown: false,
    });
  });
});

describe('examples/llm-budget.yaml and its price table', () => {
  const examples = path.resolve(__dirname, '../../examples');

  it('is a valid plan with an llm task, estimates and a token, dollar and wall-clock budget', () => {
    const loaded = loadPlanFile(path.join(examples, 'llm-budget.yaml'));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    expect(loaded.plan.budget).toMatchObject({
      maxTokens: expect.any(Number),
      maxUsd: expect.any(Number),
      maxWallMs: expect.any(Number),
    });
    expect(loaded.plan.tasks.some((t) => t.executor.kind === 'llm' && t.estimate)).toBe(true);
  });

  it('prices every model the plan uses, so its maxUsd can be kept', () => {
    const loaded = loadPlanFile(path.join(examples, 'llm-budget.yaml'));
    if (!loaded.ok) throw new Error('invalid plan');
    const config = loadConfig(path.join(examples, 'llm-budget.temporal.yaml'), {});
    for (const task of loaded.plan.tasks.filter((t) => t.executor.kind === 'llm')) {
      const usage = priceUsage(
        { model: String(task.executor.model), inputTokens: 800, outputTokens: 400, cacheTokens: 100 },
        config.prices,
      );
      expect(usage?.costUsd).toBeGreaterThan(0);
    }
  });
});
