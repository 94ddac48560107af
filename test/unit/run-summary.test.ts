import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import { statsLine } from '../../src/cli/render';

let now = 5_000_000;
const tick = (ms = 10) => (now += ms);

function start(extra: Partial<TeamPlanInput> = {}): TeamRun {
  const tasks = ['a', 'b', 'c'].map((key) => ({ key, dependsOn: [], executor: { kind: 'noop' as const } }));
  const validation = validatePlan({ name: 'summary', teammates: 2, tasks, ...extra });
  if (!validation.ok) throw new Error(JSON.stringify(validation.problems));
  return TeamRun.start(validation.plan, 'wf-summary', now);
}

describe('run stats: claimable tasks and expired leases', () => {
  it('counts ready tasks a teammate could take now, and each lease that expired, across continue-as-new', () => {
    const run = start();
    expect(run.status(now).stats).toMatchObject({ pending: 3, claimable: 3, expiredLeases: 0 });
    const claims = run.claim(tick());
    expect(claims).toHaveLength(2);
    expect(run.stats()).toMatchObject({ running: 2, pending: 1, claimable: 1 });
    const a = claims[0];
    run.settle(a.key, a.fencingToken, { kind: 'lease-lost' }, tick());
    expect(run.stats().expiredLeases).toBe(1);
    const carried = new TeamRun(run.snapshot());
    expect(carried.stats().expiredLeases).toBe(1);
    expect(statsLine(carried.stats())).toContain('1 lease(s) expired');
    expect(statsLine(carried.stats())).toMatch(/\d+ claimable/);
  });
});

describe('tasks waiting for budget: what the last claim step noted, and only that', () => {
  it('lists the first waiting tasks in plan order, counts them out of claimable, and forgets them once they run', () => {
    const tasks = Array.from({ length: 8 }, (_, i) => ({
      key: `t${i}`,
      estimate: { tokens: 40 },
      executor: { kind: 'noop' as const },
    }));
    const run = start({ teammates: 8, budget: { maxTokens: 100 }, tasks });
    // 100 tokens fit two reservations of 40: six tasks wait, the first five listed, in plan order.
    expect(run.claim(tick()).map((c) => c.key)).toEqual(['t0', 't1']);
    const waiting = run.status(now).waitingForBudget ?? [];
    expect(waiting.map((w) => w.key)).toEqual(['t2', 't3', 't4', 't5', 't6']);
    expect(waiting[0].waiting).toMatch(/^waiting for budget: needs 40 tokens, 20 tokens free/);
    expect(run.stats()).toMatchObject({ pending: 6, claimable: 0 });
    // A continued run keeps the notes until its next claim step.
    const carried = new TeamRun(run.snapshot());
    expect(carried.status(now).waitingForBudget?.map((w) => w.key)).toEqual(['t2', 't3', 't4', 't5', 't6']);
    expect(carried.stats().claimable).toBe(0);
    // Both settle having used nothing: two more start, the four left still wait.
    for (const key of ['t0', 't1']) {
      const fencingToken = run.activeClaims().find((c) => c.key === key)!.fencingToken;
      run.settle(key, fencingToken, { kind: 'completed', output: null, usage: { inputTokens: 0 } }, tick());
    }
    expect(run.claim(tick()).map((c) => c.key)).toEqual(['t2', 't3']);
    expect(run.status(now).waitingForBudget?.map((w) => w.key)).toEqual(['t4', 't5', 't6', 't7']);
    expect(
      run
        .tasksPage({})
        .filter((t) => t.waiting !== undefined)
        .map((t) => t.key),
    ).toEqual(['t4', 't5', 't6', 't7']);
  });
});

describe('the run result: members and the mailbox at the end', () => {
  it('lists each teammate slot (shut down) and what the mailbox sent and holds', () => {
    const run = start();
    run.sendMessage({ from: 'coordinator', to: 'a', body: 'start with the schema' }, tick());
    run.sendMessage({ from: 'coordinator', to: '*', body: 'all hands' }, tick());
    for (let round = 0; round < 3; round++) {
      for (const c of run.claim(tick())) run.settle(c.key, c.fencingToken, { kind: 'completed', output: 1 }, tick());
    }
    const result = run.finish(tick());
    expect(result.status).toBe('succeeded');
    expect(result.members?.map((m) => [m.holder, m.state])).toEqual([
      ['teammate-1', 'shutdown'],
      ['teammate-2', 'shutdown'],
    ]);
    expect(result.members?.reduce((n, m) => n + m.completed, 0)).toBe(3);
    expect(result.mailbox).toMatchObject({ sent: 2, pressure: 'normal', refused: 0 });
    expect(result.ledger).toBeUndefined();
    const withLedger = start().finish(tick(), {
      id: 'team',
      state: 'open',
      limits: {},
      inFlight: 0,
      used: { tokens: 5, usd: 0, attempts: 1, turns: 0, spawnedTasks: 0 },
      reserved: { tokens: 0, usd: 0 },
      remaining: { concurrent: null, tokens: null, usd: null, turns: null, spawnedTasks: null },
      exhausted: null,
    });
    expect(withLedger.ledger?.used.tokens).toBe(5);
  });
});
