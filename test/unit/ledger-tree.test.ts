import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import { loosenings } from '../../src/ledger/limits';
import { TeamRun } from '../../src/team/run';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamControlError } from '../../src/plan/requests/control';

const T0 = 1_700_000_000_000;
const LEASE = 4_000;

const acquire = (ledger: Ledger, attemptId: string) =>
  ledger.acquire(
    { attemptId, workflowId: attemptId.split('/')[0], reservation: { tokens: 0, usd: 0 }, leaseMs: LEASE },
    T0,
  );

describe("a ledger's limits across its runs", () => {
  it('gives each run a share of maxSpawnedTasks as it registers, and charges what it added when it leaves', () => {
    const ledger = Ledger.create('shared', { maxSpawnedTasks: 10 }, T0);
    expect(ledger.register({ workflowId: 'a', spawns: 6 }, T0).tree).toEqual({
      spawns: 6,
      maxDepth: null,
      maxWallMs: null,
      turns: false,
    });
    // What is left after a's share: 4 of b's 20.
    expect(ledger.register({ workflowId: 'b', spawns: 20 }, T0).tree.spawns).toBe(4);
    expect(ledger.register({ workflowId: 'c', spawns: 5 }, T0).tree.spawns).toBe(0);
    // A run registering again (its continue-as-new) keeps its share; it is not taken twice.
    expect(ledger.register({ workflowId: 'a', spawns: 6 }, T0)).toMatchObject({
      idempotent: true,
      tree: { spawns: 6 },
    });
    expect(ledger.status(T0)).toMatchObject({ spawnsHeld: 10, remaining: { spawnedTasks: 0 } });
    // a added 2 of its 6: the other 4 are free again, and c's next registration could have them.
    ledger.unregister({ workflowId: 'a', spawned: 2 }, T0);
    expect(ledger.status(T0)).toMatchObject({
      used: { spawnedTasks: 2 },
      spawnsHeld: 4,
      remaining: { spawnedTasks: 4 },
    });
    expect(ledger.register({ workflowId: 'd', spawns: 3 }, T0).tree.spawns).toBe(3);
  });

  it('charges a run that leaves without saying what it added (a forgotten run) its whole share', () => {
    const ledger = Ledger.create('shared', { maxSpawnedTasks: 10 }, T0);
    ledger.register({ workflowId: 'a', spawns: 6 }, T0);
    ledger.forget('a', T0);
    expect(ledger.status(T0)).toMatchObject({
      used: { spawnedTasks: 6 },
      spawnsHeld: 0,
      remaining: { spawnedTasks: 4 },
    });
  });

  it('takes a workflow started later under a registered id for another run: the first is charged its whole share', () => {
    const ledger = Ledger.create('shared', { maxSpawnedTasks: 10 }, T0);
    ledger.register({ workflowId: 'a', spawns: 6, firstRunId: 'run-1' }, T0);
    // The same run again (its continue-as-new): nothing changes.
    expect(ledger.register({ workflowId: 'a', spawns: 6, firstRunId: 'run-1' }, T0)).toMatchObject({
      idempotent: true,
    });
    // A new workflow under the id of one that ended without unregistering (terminated) cannot say what the first added.
    const verdict = ledger.register({ workflowId: 'a', spawns: 6, firstRunId: 'run-2' }, T0);
    expect(verdict).not.toHaveProperty('idempotent');
    expect(verdict.tree.spawns).toBe(4);
    ledger.unregister({ workflowId: 'a', spawned: 0 }, T0);
    expect(ledger.status(T0)).toMatchObject({ used: { spawnedTasks: 6 }, spawnsHeld: 0 });
    expect(ledger.status(T0).recentEvents.map((e) => e.type)).toContain('run:replaced');
  });

  it('counts model calls as granted and refuses those past maxTurns, before they are made', () => {
    const ledger = Ledger.create('shared', { maxTurns: 3 }, T0);
    expect(ledger.register({ workflowId: 'a' }, T0).tree.turns).toBe(true);
    expect(acquire(ledger, 'a/x/1')).toMatchObject({ ok: true });
    const ask = (extensionId: string, turns: number) =>
      ledger.extend({ attemptId: 'a/x/1', extensionId, extension: { tokens: 0, usd: 0 }, turns }, T0);
    expect(ask('e1', 2)).toMatchObject({ ok: true });
    // A retried ask counts once.
    expect(ask('e1', 2)).toMatchObject({ ok: true, idempotent: true });
    expect(ask('e2', 2)).toMatchObject({ ok: false, reason: 'max-turns' });
    expect(ask('e3', 1)).toMatchObject({ ok: true });
    expect(ledger.status(T0)).toMatchObject({ used: { turns: 3 }, remaining: { turns: 0 } });
    expect(
      ledger.checkExtend({ attemptId: 'a/x/1', extensionId: 'e4', extension: { tokens: 0, usd: 0 }, turns: 1 }, T0),
    ).toMatchObject({ reason: 'max-turns', message: expect.stringContaining('maxTurns 3') });
  });

  it('answers its maxDepth and maxWallMs to every run, and counts raising or removing any of them as loosening', () => {
    const ledger = Ledger.create('shared', { maxDepth: 2, maxWallMs: 60_000 }, T0);
    expect(ledger.register({ workflowId: 'a' }, T0).tree).toEqual({
      spawns: null,
      maxDepth: 2,
      maxWallMs: 60_000,
      turns: false,
    });
    expect(loosenings({ maxTurns: 5, maxDepth: 2 }, { maxTurns: 6 })).toEqual([
      'maxTurns 5 -> 6',
      'maxDepth 2 -> none',
    ]);
    expect(loosenings({ maxSpawnedTasks: 5, maxWallMs: 1_000 }, { maxSpawnedTasks: 4, maxWallMs: 1_000 })).toEqual([]);
  });
});

describe('a run within its ledger', () => {
  const plan = (budget: Record<string, unknown> = {}) => {
    const validation = validatePlan({
      name: 'on-a-ledger',
      teammates: 1,
      budget: { ledger: 'shared', ...budget },
      tasks: [{ key: 'a', executor: { kind: 'shell', command: 'true' } }],
    });
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    return validation.plan;
  };
  const add = (run: TeamRun, requestId: string, keys: string[], parent?: string) =>
    run.addTasks(
      {
        requestId,
        ...(parent ? { parent } : {}),
        tasks: keys.map((key) => ({ key, executor: { kind: 'shell', command: 'true' } })),
      },
      T0,
    );
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      return err instanceof TeamControlError ? { code: err.code, message: err.message } : String(err);
    }
    return null;
  };

  it('says it waits while it registers, then adds at most its share of maxSpawnedTasks, no deeper than maxDepth', () => {
    const run = TeamRun.start(plan({ maxSpawnedTasks: 5 }), 'run-1', T0);
    expect(run.ledgerSpawnAsk()).toBe(5);
    run.ledgerRegistering();
    // The workflow's addTasks handler waits while this is true, then adds through the rule below.
    expect(run.ledgerRegisteringNow).toBe(true);
    run.ledgerRegistered('shared', { spawns: 2, maxDepth: 1, maxWallMs: null, turns: false }, T0);
    expect(run.ledgerRegisteringNow).toBe(false);
    expect(add(run, 'r1', ['b'], 'a')).toMatchObject({ ok: true });
    expect(refusal(() => add(run, 'r2', ['c', 'd']))).toMatchObject({
      code: 'max-spawned-tasks',
      message: expect.stringContaining("share of ledger shared's maxSpawnedTasks (2)"),
    });
    // b is at depth 1: a task under it would be at depth 2.
    expect(refusal(() => add(run, 'r3', ['c'], 'b'))).toMatchObject({
      code: 'max-depth',
      message: expect.stringContaining("past ledger shared's maxDepth (1)"),
    });
    expect(add(run, 'r4', ['c'])).toMatchObject({ ok: true });
    expect(run.addedTasks).toBe(2);
    expect(run.eventsView().events.some((event) => event.type === 'ledger:limits')).toBe(true);
  });

  it("takes a ledger's maxWallMs below its own as its own, and asks the ledger for model calls only when it counts them", () => {
    const run = TeamRun.start(plan({ maxWallMs: 600_000 }), 'run-1', T0);
    run.ledgerRegistering();
    expect(run.ledgerCountsTurns).toBe(false);
    run.ledgerRegistered('shared', { spawns: null, maxDepth: null, maxWallMs: 60_000, turns: true }, T0 + 1_000);
    expect(run.wallDeadline()).toBe(T0 + 60_000);
    expect(run.ledgerCountsTurns).toBe(true);
    const later = TeamRun.start(plan({ maxWallMs: 30_000 }), 'run-2', T0);
    later.ledgerRegistered('shared', { spawns: null, maxDepth: null, maxWallMs: 60_000, turns: false }, T0);
    expect(later.wallDeadline()).toBe(T0 + 30_000);
  });
});
