import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/contract';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { carveOf, childPlan, childWorkflowId, depthRefusal, teamOutcome, type Carve } from '../../src/team/child-team';
import { TeamRun } from '../../src/team/run';
import { describeAsk, taskAskAnswer, tasksGranted } from '../../src/team/child-budget';

const noop = (key: string) => ({ key, executor: { kind: 'noop' } });
const team = (key: string, plan: Record<string, unknown>, extra: object = {}) => ({
  key,
  executor: { kind: 'team', plan },
  ...extra,
});
const leaf = { name: 'leaf', tasks: [noop('a')] };

/** A RunResult as a child's end carries it: only the fields the rules read. */
function resultOf(status: RunResult['status'], used: { tokens: number; usd: number }, usageUnknown = false): RunResult {
  return {
    status,
    stats: { total: 1 },
    budgetReason: status === 'budget_stopped' ? 'max-tokens' : null,
    budget: { used: { tasks: 1, wallMs: 5, ...used }, usageUnknown },
    tasks: [{ key: 'a', status: 'succeeded', output: { n: 1 } }],
  } as unknown as RunResult;
}

const carve: Carve = { tokens: 100, usd: 0.5, tasks: 7, wallMs: 60_000 };

describe('team task plans: validated as plans, nested at most maxTeamDepth', () => {
  it('stamps each level with teamDepth and the tree bound (as each child validates its own plan), three levels pass', () => {
    const validation = validatePlan({
      name: 'root',
      tasks: [team('mid', { name: 'mid', tasks: [team('low', { name: 'low', tasks: [team('leaf', leaf)] })] })],
    });
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    const mid = validation.plan.tasks[0].executor.plan as Record<string, any>;
    expect(mid).toMatchObject({ teamDepth: 1, maxTeamDepth: 3 });
    // The child run validates its plan as it starts: that stamps the next level.
    const low = validatePlan(mid);
    if (!low.ok) throw new Error(formatProblems(low.problems));
    const lowPlan = low.plan.tasks[0].executor.plan as Record<string, any>;
    expect(lowPlan).toMatchObject({ teamDepth: 2, maxTeamDepth: 3 });
    const leafLevel = validatePlan(lowPlan);
    if (!leafLevel.ok) throw new Error(formatProblems(leafLevel.problems));
    expect(leafLevel.plan.tasks[0].executor.plan).toMatchObject({ teamDepth: 3, maxTeamDepth: 3 });
  });

  it('refuses a fourth level, naming where, and a child cannot loosen its parent bound', () => {
    const deep = validatePlan({
      name: 'root',
      maxTeamDepth: 1,
      tasks: [team('mid', { name: 'mid', maxTeamDepth: 5, tasks: [team('low', leaf)] })],
    });
    expect(deep.ok).toBe(false);
    if (deep.ok) return;
    expect(deep.problems).toEqual([
      expect.objectContaining({ code: 'team_too_deep', path: 'tasks[0].executor.plan.tasks[0].executor.plan' }),
    ]);
  });

  it("reports a child plan's own problems under its task's path", () => {
    const bad = validatePlan({ name: 'root', tasks: [team('mid', { name: 'mid', tasks: [noop('a'), noop('a')] })] });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problems[0].path).toMatch(/^tasks\[0\]\.executor\.plan\.tasks/);
  });

  it('a plan that reached a run without its level stamped, or past its bound, is refused at run time', () => {
    expect(depthRefusal({ name: 'x', tasks: [] })).toMatch(/no level/);
    expect(depthRefusal({ teamDepth: 4, maxTeamDepth: 3 })).toMatch(/past maxTeamDepth 3/);
    expect(depthRefusal({ teamDepth: 3, maxTeamDepth: 3 })).toBeNull();
  });
});

describe('the carve: the child limits are at most what the parent reserved', () => {
  it('takes the lower of its own limit and the carve, and sets the carve where it has none', () => {
    expect(childPlan({ name: 'c', budget: { maxTokens: 500, maxUsd: 0.1 }, tasks: [] }, carve).budget).toEqual({
      maxTokens: 100,
      maxUsd: 0.1,
      maxTasks: 7,
      maxWallMs: 60_000,
    });
    const free: Carve = { tokens: null, usd: null, tasks: null, wallMs: null };
    expect(childPlan({ name: 'c', budget: { maxTokens: 5 }, tasks: [] }, free).budget).toEqual({ maxTokens: 5 });
  });

  it('a team task with its own maxTokens reserves that from the parent, and the claim grant is the carve', () => {
    const validation = validatePlan({
      name: 'p',
      budget: { maxTokens: 1_000, maxTasks: 10 },
      tasks: [team('t', { name: 'c', budget: { maxTokens: 300 }, tasks: [noop('a')] })],
    });
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    const run = TeamRun.start(validation.plan, 'wf', 0);
    const [claim] = run.claim(0);
    expect(claim.grant.tokens).toBe(300);
    expect(run.budgetView(0).reserved.tokens).toBe(300);
    expect(carveOf(claim, run.budgetView(0))).toEqual({ tokens: 300, usd: null, tasks: 9, wallMs: null });
    expect(childWorkflowId('wf', claim.key, claim.fencingToken)).toBe('wf/t#1');
  });

  it('a parent with less left than the child asks for refuses the claim: nothing starts', () => {
    const validation = validatePlan({
      name: 'p',
      teammates: 1,
      awaitAdjudication: false,
      budget: { maxTokens: 100 },
      tasks: [team('t', { name: 'c', budget: { maxTokens: 300 }, tasks: [noop('a')] })],
    });
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    const run = TeamRun.start(validation.plan, 'wf', 0);
    expect(run.claim(0)).toEqual([]);
    expect(run.budgetView(0).reason).toBe('max-tokens');
  });
});

describe("maxTasks across a tree: a child's share is held by its parent and its tree's attempts charged back", () => {
  const fiveNoops = (name: string) => ({ name, teammates: 1, tasks: [1, 2, 3, 4, 5].map((n) => noop(`n${n}`)) });
  const started = (plan: object) => {
    const validation = validatePlan(plan);
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    return TeamRun.start(validation.plan, 'wf', 0);
  };
  const ended = (tasks: number) => ({ ...resultOf('succeeded', { tokens: 0, usd: 0 }), budget: { used: { tasks } } });

  it('two team tasks claimed together share what is left; their holds and charges keep the tree within maxTasks', () => {
    const run = started({
      name: 'p',
      teammates: 2,
      budget: { maxTasks: 7 },
      tasks: [team('A', fiveNoops('a')), team('B', fiveNoops('b'))],
    });
    const [a, b] = run.claim(0);
    // 7 less the two team tasks' own attempts: 5 left, shared by the two children starting.
    expect(run.carveTasks(a.key, a.fencingToken)).toBe(2);
    expect(run.carveTasks(b.key, b.fencingToken)).toBe(3);
    expect(carveOf(a, run.budgetView(0), 2).tasks).toBe(2);
    expect(run.budgetView(0).remaining.tasks).toBe(0);
    // A's tree made 2 attempts: charged in place of its hold. B ended unknown: charged its whole hold.
    run.chargeTree(a.key, a.fencingToken, ended(2) as unknown as RunResult);
    expect(run.budgetView(0).used.tasks).toBe(4);
    run.chargeTree(b.key, b.fencingToken, null);
    expect(run.budgetView(0).used.tasks).toBe(7);
    expect(run.budgetView(0).remaining.tasks).toBe(0);
  });

  it('a child that ended using less gives the rest back; one that never started is charged nothing', () => {
    const run = started({ name: 'p', teammates: 1, budget: { maxTasks: 10 }, tasks: [team('A', fiveNoops('a'))] });
    const [a] = run.claim(0);
    expect(run.carveTasks(a.key, a.fencingToken)).toBe(9);
    run.chargeTree(a.key, a.fencingToken, null, false);
    expect(run.budgetView(0).used.tasks).toBe(1);
    expect(run.budgetView(0).remaining.tasks).toBe(9);
  });

  it('a team task waits, saying why, while its child would get no attempt; a plain task still runs', () => {
    const run = started({
      name: 'p',
      teammates: 2,
      awaitAdjudication: false,
      budget: { maxTasks: 2 },
      tasks: [noop('p'), team('T', fiveNoops('t'))],
    });
    const claims = run.claim(0);
    expect(claims.map((c) => c.key)).toEqual(['p']);
    expect(run.status(0).waitingForBudget).toEqual([
      {
        key: 'T',
        waiting:
          'waiting for budget: maxTasks 2: 1 attempts made, 0 held by running child teams; ' +
          'a team task needs 2 (its own and one for its child)',
      },
    ]);
  });

  it('a child whose share is spent asks its parent for the attempts its ready tasks need, and stops once refused', () => {
    const child = started({
      name: 'c',
      teammates: 3,
      awaitAdjudication: false,
      budget: { maxTasks: 2 },
      tasks: fiveNoops('c').tasks,
    });
    child.mayAskParentForTasks();
    const first = child.claim(0);
    expect(first.map((c) => c.key)).toEqual(['n1', 'n2']);
    for (const c of first) child.settle(c.key, c.fencingToken, { kind: 'completed', output: null }, 1);
    // Three ready, three teammates free: it asks for three and waits, saying so, instead of stopping.
    expect(child.claim(2)).toEqual([]);
    expect(child.tasksWanted).toBe(3);
    expect(child.status(2).state).toBe('running');
    expect(child.status(2).waitingForBudget?.[0]?.waiting).toBe(
      'waiting for budget: maxTasks 2 reached; asking the parent',
    );
    // Granted two of them: its maxTasks grows by two, and two more run.
    child.tasksAnswered({ granted: 2 }, 3);
    expect(child.budgetView(3).limits.maxTasks).toBe(4);
    const second = child.claim(3);
    expect(second.map((c) => c.key)).toEqual(['n3', 'n4']);
    for (const c of second) child.settle(c.key, c.fencingToken, { kind: 'completed', output: null }, 4);
    expect(child.claim(5)).toEqual([]);
    expect(child.tasksWanted).toBe(1);
    // Refused: the refusal stands, and the run stops as a flat run does.
    child.tasksAnswered({ refused: 'TEAM_TASK_BUDGET_EXCEEDED: none left' }, 6);
    child.claim(6);
    expect(child.tasksWanted).toBe(0);
    expect(child.status(6).state).toBe('budget_stopped');
  });

  it('a run with no parent to ask stops when its maxTasks is spent, as before', () => {
    const run = started({
      name: 'r',
      teammates: 3,
      awaitAdjudication: false,
      budget: { maxTasks: 2 },
      tasks: fiveNoops('r').tasks,
    });
    for (const c of run.claim(0)) run.settle(c.key, c.fencingToken, { kind: 'completed', output: null }, 1);
    run.claim(2);
    expect(run.tasksWanted).toBe(0);
    expect(run.status(2).state).toBe('budget_stopped');
  });

  it("a parent grants a child's ask for attempts from what it has left, holds them, and refuses when none are left", () => {
    const run = started({
      name: 'p',
      teammates: 2,
      budget: { maxTasks: 12 },
      tasks: [team('A', fiveNoops('a')), team('B', fiveNoops('b'))],
    });
    const [a, b] = run.claim(0);
    expect([run.carveTasks(a.key, a.fencingToken), run.carveTasks(b.key, b.fencingToken)]).toEqual([5, 5]);
    run.childStarted(a.key, a.fencingToken, { workflowId: 'wf/A#1', runId: 'ra' });
    run.childStarted(b.key, b.fencingToken, { workflowId: 'wf/B#1', runId: 'rb' });
    const ask = (tasks: number) => ({
      key: 'B',
      fencingToken: b.fencingToken,
      childWorkflowId: 'wf/B#1',
      childRunId: 'rb',
      tasks,
    });
    // Nothing left while both hold their shares.
    expect(() => run.grantChildCarve(ask(3), 1)).toThrow(/TEAM_TASK_BUDGET_EXCEEDED|none left/);
    // A ended having made 2: 3 are left; B asks for 4 and is granted the 3, held for it.
    run.chargeTree(a.key, a.fencingToken, ended(2) as unknown as RunResult);
    expect(run.grantChildCarve(ask(4), 2)).toEqual({ tokens: 0, usd: 0, tasks: 3 });
    expect(run.budgetView(2).remaining.tasks).toBe(0);
    // B's tree made all eight it held: the root counted 2 + 2 + 8, its limit.
    run.chargeTree(b.key, b.fencingToken, ended(8) as unknown as RunResult);
    expect(run.budgetView(3).used.tasks).toBe(12);
    // An ask naming another run id is refused before anything is granted.
    expect(() => run.checkChildCarve({ ...ask(1), childRunId: 'other' })).toThrow(/not the child/);
  });

  it("stamps a child's plan with its parent's ledger, and refuses one naming another ledger", () => {
    const child = (budget: Record<string, unknown> = {}) => ({
      key: 'A',
      executor: { kind: 'team', plan: { name: 'c', budget, tasks: [{ key: 'x', executor: { kind: 'noop' } }] } },
    });
    const onLedger = validatePlan({ name: 'p', budget: { ledger: 'swarm' }, tasks: [child()] });
    expect(onLedger.ok && (onLedger.plan.tasks[0].executor.plan as { budget: unknown }).budget).toEqual({
      ledger: 'swarm',
    });
    const same = validatePlan({ name: 'p', budget: { ledger: 'swarm' }, tasks: [child({ ledger: 'swarm' })] });
    expect(same.ok).toBe(true);
    const other = validatePlan({ name: 'p', budget: { ledger: 'swarm' }, tasks: [child({ ledger: 'elsewhere' })] });
    expect(other.ok ? [] : other.problems).toMatchObject([
      { path: 'tasks[0].executor.plan.budget.ledger', code: 'team_ledger_differs' },
    ]);
    // Without a ledger of its own, the parent leaves its child's plan as it is.
    const free = validatePlan({ name: 'p', tasks: [child({ ledger: 'elsewhere' })] });
    expect(free.ok && (free.plan.tasks[0].executor.plan as { budget: unknown }).budget).toEqual({
      ledger: 'elsewhere',
    });
  });

  it("a parent holds no more for a child than its plan's own maxTasks and tree limits: the rest goes to its siblings", () => {
    const capped = { ...fiveNoops('a'), budget: { maxTasks: 2, tree: { maxSpawnedTasks: 1 } } };
    const run = started({
      name: 'p',
      teammates: 2,
      budget: { maxTasks: 12, tree: { maxSpawnedTasks: 6 } },
      tasks: [team('A', capped), team('B', fiveNoops('b'))],
    });
    const [a, b] = run.claim(0);
    // 10 attempts left for two children: A can use 2 of them, so B's share is the other 8 (5 and 5 before).
    expect([run.carveTasks(a.key, a.fencingToken), run.carveTasks(b.key, b.fencingToken)]).toEqual([2, 8]);
    expect([run.carveTree(a.key, a.fencingToken), run.carveTree(b.key, b.fencingToken)]).toEqual([
      { maxSpawnedTasks: 1 },
      { maxSpawnedTasks: 5 },
    ]);
  });

  it("reads a parent's verdict on an ask for attempts: a grant, or a refusal that stands (0 granted is a refusal)", () => {
    const granted = (tasks?: number) => ({
      ok: true as const,
      granted: { tokens: 0, usd: 0, ...(tasks ? { tasks } : {}) },
    });
    expect(taskAskAnswer(granted(3))).toEqual({ granted: 3 });
    expect(taskAskAnswer(granted(0))).toEqual({ refused: 'the parent granted no attempts' });
    expect(taskAskAnswer(granted())).toEqual({ refused: 'the parent granted no attempts' });
    expect(taskAskAnswer({ ok: false, code: 'parent_unreachable', message: 'timed out' })).toEqual({
      refused: 'parent_unreachable: timed out',
    });
    expect([tasksGranted(granted(2)), tasksGranted({ ok: false, code: 'x', message: 'y' })]).toEqual([2, 0]);
    expect([describeAsk({ tasks: 3 }), describeAsk({ tokens: 500, usd: 0.2 })]).toEqual([
      '3 more attempts',
      '500 more tokens and $0.2',
    ]);
  });

  it("a parent grants no attempts past the child plan's own maxTasks", () => {
    const capped = { ...fiveNoops('a'), budget: { maxTasks: 3 } };
    for (const budget of [{ maxTasks: 20 }, {}]) {
      const run = started({ name: 'p', budget, tasks: [team('A', capped)] });
      const [a] = run.claim(0);
      run.carveTasks(a.key, a.fencingToken);
      run.childStarted(a.key, a.fencingToken, { workflowId: 'wf/A#1', runId: 'ra' });
      const ask = { key: 'A', fencingToken: a.fencingToken, childWorkflowId: 'wf/A#1', childRunId: 'ra', tasks: 2 };
      expect(() => run.grantChildCarve(ask, 1)).toThrow(/its own maxTasks 3/);
    }
  });

  it('a run without maxTasks gives its child no task limit and holds nothing', () => {
    const run = started({ name: 'p', tasks: [team('A', fiveNoops('a'))] });
    const [a] = run.claim(0);
    expect(run.carveTasks(a.key, a.fencingToken)).toBeNull();
    expect(carveOf(a, run.budgetView(0), null).tasks).toBeNull();
  });
});

describe("a child's end settles its task", () => {
  it('succeeded: completed, its used tokens and dollars are the usage charged, its outputs the output', () => {
    const outcome = teamOutcome('wf/t#1', resultOf('succeeded', { tokens: 42, usd: 0.01 }), carve, false);
    expect(outcome).toMatchObject({
      kind: 'completed',
      usage: { inputTokens: 42, costUsd: 0.01 },
      output: { run: 'wf/t#1', status: 'succeeded', outputs: { a: { n: 1 } } },
    });
    expect('usageUnknown' in outcome).toBe(false);
  });

  it('failed or budget-stopped: a retryable failure that still charges what it used', () => {
    const outcome = teamOutcome('wf/t#1', resultOf('budget_stopped', { tokens: 99, usd: 0 }), carve, false);
    expect(outcome).toMatchObject({ kind: 'failed', nonRetryable: false, usage: { inputTokens: 99 } });
    if (outcome.kind === 'failed') expect(outcome.message).toMatch(/ended budget_stopped \(max-tokens\)/);
  });

  it('stopped by the parent: cancelled, for the interrupt or abort rules', () => {
    expect(teamOutcome('c', resultOf('aborted', { tokens: 3, usd: 0 }), carve, true).kind).toBe('cancelled');
  });

  it('no result, or usage unknown in the child: charged at least its carve, and marked unknown', () => {
    expect(teamOutcome('c', null, carve, false)).toMatchObject({
      kind: 'failed',
      usage: { inputTokens: 100, costUsd: 0.5 },
      usageUnknown: true,
    });
    expect(teamOutcome('c', resultOf('succeeded', { tokens: 10, usd: 0 }, true), carve, false)).toMatchObject({
      usage: { inputTokens: 100, costUsd: 0.5 },
      usageUnknown: true,
    });
  });
});

describe('stops cascade: a stopped team task tells its child why', () => {
  it("an abort of the parent sends the child the parent's code and actor, without adjudication", () => {
    const validation = validatePlan({ name: 'p', tasks: [team('t', leaf), noop('n')] });
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    const run = TeamRun.start(validation.plan, 'wf', 0);
    expect(run.claim(0).map((c) => c.key)).toEqual(['t', 'n']);
    run.abort({ code: 'OPS_STOP', actor: 'alice', reason: 'enough' }, 1);
    const cancels = run.drainCancellations();
    expect(cancels.find((c) => c.key === 't')?.childAbort).toEqual({
      code: 'OPS_STOP',
      actor: 'alice',
      reason: 'the parent run was aborted: enough',
      interrupt: false,
    });
    expect(cancels.find((c) => c.key === 'n')?.childAbort).toBeUndefined();
  });

  it('an interrupt of the team task sends its child TEAM_TASK_HUMAN_INTERRUPTED with the actor', () => {
    const validation = validatePlan({ name: 'p', tasks: [team('t', leaf)] });
    if (!validation.ok) throw new Error(formatProblems(validation.problems));
    const run = TeamRun.start(validation.plan, 'wf', 0);
    const [claim] = run.claim(0);
    run.interrupt({ key: 't', fencingToken: claim.fencingToken, actor: 'bob', reason: 'wrong path' }, 1);
    expect(run.drainCancellations()[0].childAbort).toMatchObject({
      code: 'TEAM_TASK_HUMAN_INTERRUPTED',
      actor: 'bob',
      reason: 'interrupted in the parent run wf, task t#1: wrong path',
      interrupt: true,
    });
  });
});
