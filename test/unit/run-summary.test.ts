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
      used: { tokens: 5, usd: 0, attempts: 1 },
      reserved: { tokens: 0, usd: 0 },
      remaining: { concurrent: null, tokens: null, usd: null },
      exhausted: null,
    });
    expect(withLedger.ledger?.used.tokens).toBe(5);
  });
});
