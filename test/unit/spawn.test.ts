import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AddTasksRequestSchema } from '../../src/plan/requests/add-tasks';
import type { TeamPlanInput } from '../../src/plan/schema';
import { planJsonSchema } from '../../src/plan/json-schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamControlError } from '../../src/plan/requests/control';
import { TeamRun } from '../../src/team/run';
import { SPAWN_REQUESTS_KEPT, Spawns } from '../../src/team/spawn';
import { packSnapshot, unpackSnapshot } from '../../src/team/snapshot';
import type { AttemptOutcome } from '../../src/team/types';
import { allTasks } from '../helpers/team-run';

type TaskInput = TeamPlanInput['tasks'][number];

const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'noop' },
  ...extra,
});

function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'unit', teammates: 4, ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-unit', 0);
}

const ok = (output?: unknown, tasks?: unknown[]): AttemptOutcome => ({
  kind: 'completed',
  output,
  ...(tasks ? { tasks } : {}),
});
const view = (run: TeamRun, key: string) => allTasks(run).find((t) => t.key === key);
const keysOf = (run: TeamRun) => allTasks(run).map((t) => t.key);
const eventsOf = (run: TeamRun, type: string) =>
  run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);

/** The refusal an addTasks request gets: its code and message. */
function refusal(run: TeamRun, payload: unknown): { code: string; message: string } {
  try {
    run.addTasks(payload, 5);
  } catch (err) {
    if (err instanceof TeamControlError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('addTasks was accepted');
}

/** Runs every claimable task to success, returning the keys it ran. */
function drain(run: TeamRun, now = 10): string[] {
  const ran: string[] = [];
  for (let claims = run.claim(now); claims.length; claims = run.claim(now)) {
    for (const c of claims) {
      run.settle(c.key, c.fencingToken, ok(), now);
      ran.push(c.key);
    }
  }
  return ran;
}

describe('addTasks: validation against the running graph', () => {
  it('accepts dependencies on settled tasks and on tasks of the same request, and hands settled outputs over', () => {
    const run = runOf([task('a'), task('hold')]);
    const [a, hold] = run.claim(0);
    run.settle('a', a.fencingToken, ok({ n: 1 }), 1);
    const answer = run.addTasks(
      { requestId: 'r1', tasks: [task('b', { dependsOn: ['a'] }), task('c', { dependsOn: ['b', 'a'] })] },
      2,
    );
    expect(answer).toEqual({ ok: true, added: ['b', 'c'] });
    expect(view(run, 'b')?.status).toBe('ready');
    expect(view(run, 'c')?.status).toBe('blocked');
    const [b] = run.claim(3);
    expect(b.key).toBe('b');
    expect(b.dependencyOutputs).toEqual({ a: { n: 1 } });
    run.settle('b', b.fencingToken, ok(), 4);
    run.settle('hold', hold.fencingToken, ok(), 4);
    expect(drain(run)).toEqual(['c']);
    expect(run.finish(20).status).toBe('succeeded');
    expect(run.finish(20).stats.total).toBe(4);
  });

  it('refuses a cycle among new tasks that passes through a settled task, naming the cycle and its path', () => {
    const run = runOf([task('a'), task('hold')]);
    const [a] = run.claim(0);
    run.settle('a', a.fencingToken, ok(), 1);
    const refused = refusal(run, {
      requestId: 'r1',
      tasks: [
        task('x', { dependsOn: ['a', 'y'] }),
        task('y', { dependsOn: ['z'] }),
        task('z', { dependsOn: ['x', 'a'] }),
      ],
    });
    expect(refused.code).toBe('cycle');
    expect(refused.message).toMatch(/tasks\[0\]\.dependsOn: dependency cycle: x -> y -> z -> x/);
    expect(keysOf(run)).toEqual(['a', 'hold']);
  });

  it('refuses a key already in the run (settled or not) and a key twice in the request', () => {
    const run = runOf([task('a'), task('hold')]);
    const [a] = run.claim(0);
    run.settle('a', a.fencingToken, ok(), 1);
    // Redefining a settled task with a dependency on a new one is how a cycle through it would be made.
    expect(refusal(run, { requestId: 'r1', tasks: [task('n1'), task('a', { dependsOn: ['n1'] })] })).toMatchObject({
      code: 'duplicate_key',
      message: expect.stringContaining('tasks[1].key: duplicate task key "a" (already in the run)'),
    });
    expect(refusal(run, { requestId: 'r2', tasks: [task('n1'), task('n1')] })).toMatchObject({
      code: 'duplicate_key',
      message: expect.stringContaining('tasks[1].key: duplicate task key "n1" (first used at tasks[0])'),
    });
  });

  it('refuses an unknown dependency with a did-you-mean over the run and the request', () => {
    const run = runOf([task('fetch-sources'), task('hold')]);
    const refused = refusal(run, { requestId: 'r1', tasks: [task('build', { dependsOn: ['fetch-source'] })] });
    expect(refused.code).toBe('unknown_dependency');
    expect(refused.message).toContain(
      'tasks[0].dependsOn[0]: unknown task "fetch-source": not in the run nor in this request (did you mean "fetch-sources"?)',
    );
  });

  it('refuses a task that fails the plan schema, with its path', () => {
    const run = runOf([task('a')]);
    const refused = refusal(run, { requestId: 'r1', tasks: [task('ok'), { key: 'bad', executor: { kind: 'shell' } }] });
    expect(refused.code).toBe('schema');
    expect(refused.message).toMatch(/^addTasks: tasks\[1\]\.executor\.command/);
  });

  it('is atomic: one bad task in a batch adds none of the others', () => {
    const run = runOf([task('a')]);
    const before = run.snapshot();
    refusal(run, { requestId: 'r1', tasks: [task('n1'), task('n2'), task('n3', { dependsOn: ['nope'] })] });
    expect(keysOf(run)).toEqual(['a']);
    expect(run.addedTasks).toBe(0);
    expect(run.snapshot().plan.tasks).toEqual(before.plan.tasks);
    expect(eventsOf(run, 'task:added')).toEqual([]);
  });

  it('skips a new task at once when a dependency already failed', () => {
    const run = runOf([task('a', { retry: { maxAttempts: 1 } }), task('hold')]);
    const [a] = run.claim(0);
    run.settle('a', a.fencingToken, { kind: 'failed', message: 'boom', nonRetryable: true }, 1);
    run.addTasks(
      {
        requestId: 'r1',
        tasks: [task('after-a', { dependsOn: ['a'] }), task('after-that', { dependsOn: ['after-a'] })],
      },
      2,
    );
    expect(view(run, 'after-a')).toMatchObject({ status: 'skipped', skipReason: 'dependency "a" failed' });
    expect(view(run, 'after-that')).toMatchObject({ status: 'skipped', skipReason: 'dependency "after-a" skipped' });
  });

  it('is idempotent by requestId: the same request again adds nothing and answers the same keys', () => {
    const run = runOf([task('a')]);
    run.addTasks({ requestId: 'same', tasks: [task('n1'), task('n2')] }, 1);
    expect(run.addTasks({ requestId: 'same', tasks: [task('n1'), task('n2')] }, 2)).toEqual({
      ok: true,
      added: ['n1', 'n2'],
      idempotent: true,
    });
    expect(keysOf(run)).toEqual(['a', 'n1', 'n2']);
    expect(run.addedTasks).toBe(2);
  });
});

describe('addTasks: who may add', () => {
  it('a task adds work under its current fencing token only, and only with allowSpawn', () => {
    const run = runOf([task('planner', { allowSpawn: true }), task('worker')]);
    const claims = run.claim(0);
    const planner = claims.find((c) => c.key === 'planner')!;
    const worker = claims.find((c) => c.key === 'worker')!;
    expect(
      refusal(run, { requestId: 'r0', parent: 'planner', fencingToken: planner.fencingToken + 1, tasks: [task('s1')] })
        .code,
    ).toBe('stale_attempt');
    expect(
      refusal(run, { requestId: 'r1', parent: 'worker', fencingToken: worker.fencingToken, tasks: [task('s1')] }).code,
    ).toBe('forbidden');
    const answer = run.addTasks(
      { requestId: 'r2', parent: 'planner', fencingToken: planner.fencingToken, tasks: [task('s1')] },
      1,
    );
    expect(answer.added).toEqual(['s1']);
    expect(view(run, 's1')).toMatchObject({ parent: 'planner', depth: 1 });
    expect(view(run, 'planner')).toMatchObject({ parent: null, depth: 0 });
    // The attempt settled: its token no longer adds anything.
    run.settle('planner', planner.fencingToken, ok(), 2);
    expect(
      refusal(run, { requestId: 'r3', parent: 'planner', fencingToken: planner.fencingToken, tasks: [task('s2')] })
        .code,
    ).toBe('stale_attempt');
    expect(eventsOf(run, 'task:added')).toEqual([
      expect.objectContaining({ count: 1, keys: ['s1'], parent: 'planner', depth: 1, actor: null, requestId: 'r2' }),
    ]);
  });

  it('a person outside governance.operators is forbidden; an operator may add', () => {
    const run = runOf([task('a')], { governance: { operators: ['alice'] } });
    expect(refusal(run, { requestId: 'r1', actor: 'mallory', tasks: [task('n1')] }).code).toBe('forbidden');
    expect(run.addTasks({ requestId: 'r2', actor: 'alice', tasks: [task('n1')] }, 1).added).toEqual(['n1']);
  });

  it('a run that was aborted or stopped on its budget takes no new tasks', () => {
    const aborted = runOf([task('a')]);
    aborted.abort({ reason: 'enough' }, 1);
    expect(refusal(aborted, { requestId: 'r1', tasks: [task('n1')] }).code).toBe('run_not_accepting_work');

    const stopped = runOf([task('a'), task('b')], { budget: { maxTasks: 1 }, teammates: 1 });
    const [a] = stopped.claim(0);
    stopped.settle('a', a.fencingToken, ok(), 1);
    stopped.claim(2);
    expect(stopped.budgetView(2).stopped).toBe(true);
    expect(refusal(stopped, { requestId: 'r1', tasks: [task('n1')] }).code).toBe('run_not_accepting_work');
  });
});

describe('addTasks: limits fail closed', () => {
  it('budget.maxSpawnedTasks counts every task added during the run', () => {
    const run = runOf([task('hold')], { budget: { maxSpawnedTasks: 3 } });
    run.addTasks({ requestId: 'r1', tasks: [task('n1'), task('n2')] }, 1);
    const refused = refusal(run, { requestId: 'r2', tasks: [task('n3'), task('n4')] });
    expect(refused.code).toBe('max-spawned-tasks');
    expect(refused.message).toContain('adding 2 task(s) to the 2 already added would pass budget.maxSpawnedTasks (3)');
    expect(run.addTasks({ requestId: 'r3', tasks: [task('n3')] }, 2).added).toEqual(['n3']);
    expect(run.addedTasks).toBe(3);
  });

  it('budget.maxDepth bounds the parent chain from a plan task', () => {
    const run = runOf([task('root', { allowSpawn: true })], { budget: { maxDepth: 1 } });
    const [root] = run.claim(0);
    run.addTasks(
      {
        requestId: 'r1',
        parent: 'root',
        fencingToken: root.fencingToken,
        tasks: [task('child', { allowSpawn: true })],
      },
      1,
    );
    run.settle('root', root.fencingToken, ok(), 2);
    const [child] = run.claim(3);
    const refused = refusal(run, {
      requestId: 'r2',
      parent: 'child',
      fencingToken: child.fencingToken,
      tasks: [task('grandchild')],
    });
    expect(refused.code).toBe('max-depth');
    expect(refused.message).toContain('depth 2, past budget.maxDepth (1)');
  });

  it('tasks a planner prints are added only when its attempt settles it; over the limit it goes to adjudication and nothing is added', () => {
    const subtasks = [
      task('s1'),
      task('s2'),
      task('s3'),
      task('s4'),
      task('s5'),
      task('merge', { dependsOn: ['s1', 's2', 's3', 's4', 's5'] }),
    ];
    const run = runOf([task('planner', { allowSpawn: true })], { budget: { maxSpawnedTasks: 3 } });
    const [planner] = run.claim(0);
    run.settle('planner', planner.fencingToken, ok({ planned: 6 }, subtasks), 1);
    expect(view(run, 'planner')?.status).toBe('adjudication');
    const [record] = run.adjudicationsView();
    expect(record).toMatchObject({ key: 'planner', code: 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED', result: { planned: 6 } });
    expect(record.reason).toContain('max-spawned-tasks');
    expect(keysOf(run)).toEqual(['planner']);
  });

  it('a failed attempt adds nothing; the retry that succeeds adds its tasks once', () => {
    const run = runOf([task('planner', { allowSpawn: true })]);
    const [first] = run.claim(0);
    run.settle('planner', first.fencingToken, { kind: 'failed', message: 'flaky', nonRetryable: false }, 1);
    expect(keysOf(run)).toEqual(['planner']);
    const [second] = run.claim(10_000);
    run.settle(
      'planner',
      second.fencingToken,
      ok(undefined, [task('s1'), task('merge', { dependsOn: ['s1', 'planner'] })]),
      10_001,
    );
    expect(view(run, 'planner')?.status).toBe('succeeded');
    expect(drain(run, 10_002)).toEqual(['s1', 'merge']);
    expect(run.finish(10_003)).toMatchObject({ status: 'succeeded', stats: { total: 3, succeeded: 3 } });
    expect(run.spawnTree()).toEqual([{ parent: 'planner', children: ['s1', 'merge'], total: 2 }]);
  });

  it('tasks that form a cycle fail the task that printed them at once: a retry would print the same and be refused the same', () => {
    const run = runOf([task('planner', { allowSpawn: true, retry: { maxAttempts: 3, backoffMs: 0 } })]);
    const [first] = run.claim(0);
    run.settle(
      'planner',
      first.fencingToken,
      ok({ planned: 2 }, [task('x', { dependsOn: ['y'] }), task('y', { dependsOn: ['x'] })]),
      1,
    );
    expect(view(run, 'planner')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/cycle.*x -> y -> x|cycle.*y -> x -> y/),
    });
    expect(keysOf(run)).toEqual(['planner']);
    expect(run.claim(10)).toEqual([]);
    expect(eventsOf(run, 'task:failed')).toEqual([expect.objectContaining({ key: 'planner', willRetry: false })]);
  });

  it('tasks from a task without allowSpawn fail the attempt, and bad tasks fail it for good too', () => {
    const run = runOf([
      task('quiet', { retry: { maxAttempts: 1 } }),
      task('sloppy', { allowSpawn: true, retry: { maxAttempts: 2, backoffMs: 0 } }),
    ]);
    const claims = run.claim(0);
    for (const c of claims) run.settle(c.key, c.fencingToken, ok(undefined, [task('x', { dependsOn: ['nope'] })]), 1);
    expect(view(run, 'quiet')).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('no "allowSpawn": true'),
    });
    expect(view(run, 'sloppy')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: expect.stringContaining('unknown_dependency'),
    });
  });
});

describe('added tasks across continue-as-new', () => {
  it('a packed snapshot keeps added tasks, their parents and depths, the spawn count and the requests taken', () => {
    const run = runOf([task('planner', { allowSpawn: true })]);
    const [planner] = run.claim(0);
    run.addTasks(
      {
        requestId: 'r1',
        parent: 'planner',
        fencingToken: planner.fencingToken,
        tasks: [task('s1'), task('s2', { dependsOn: ['s1'] })],
      },
      1,
    );
    const next = new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));
    expect(next.tasksPage().map((t) => [t.key, t.status, t.parent, t.depth])).toEqual([
      ['planner', 'leased', null, 0],
      ['s1', 'ready', 'planner', 1],
      ['s2', 'blocked', 'planner', 1],
    ]);
    expect(next.addedTasks).toBe(2);
    expect(next.addTasks({ requestId: 'r1', tasks: [task('s1')] }, 2)).toEqual({
      ok: true,
      added: ['s1', 's2'],
      idempotent: true,
    });
  });
});

describe('the JSON Schema of addTasks', () => {
  it('describes the request and its TaskSpec (the plan task entry, allowSpawn included)', () => {
    const schema = z.toJSONSchema(AddTasksRequestSchema, { io: 'input', unrepresentable: 'any' }) as unknown as {
      required: string[];
      properties: { tasks: { maxItems: number; items: { properties: Record<string, unknown>; required: string[] } } };
    };
    expect(schema.required).toEqual(['tasks', 'requestId']);
    expect(schema.properties.tasks.maxItems).toBe(1_000);
    expect(schema.properties.tasks.items.required).toEqual(['key', 'executor']);
    expect(Object.keys(schema.properties.tasks.items.properties)).toEqual(
      expect.arrayContaining(['key', 'dependsOn', 'allowSpawn', 'executor']),
    );
  });
});

describe('the plan JSON Schema (teamrun schema)', () => {
  it("holds TaskSpec and the addTasks payload in $defs, the payload's tasks being TaskSpec entries", () => {
    const schema = planJsonSchema() as {
      $defs: Record<string, { properties: Record<string, { items?: unknown; oneOf?: unknown[] }>; required: string[] }>;
    };
    expect(schema.$defs.TaskSpec.properties.allowSpawn).toMatchObject({ type: 'boolean' });
    expect(schema.$defs.TaskSpec.properties.executor.oneOf!.length).toBeGreaterThan(5);
    expect(schema.$defs.AddTasksRequest.required).toEqual(['tasks', 'requestId']);
    expect(schema.$defs.AddTasksRequest.properties.tasks.items).toEqual({ $ref: '#/$defs/TaskSpec' });
  });
});

describe('the spawn record is bounded', () => {
  it('remembers the newest 256 requests, so at its bound it weighs about 60 KB of the snapshot', () => {
    const spawns = new Spawns();
    for (let r = 0; r < 1_000; r++) spawns.record(`${String(r).padStart(6, '0')}${'x'.repeat(194)}`, r * 20, 20);
    const snapshot = spawns.snapshot();
    expect(snapshot.requests).toHaveLength(SPAWN_REQUESTS_KEPT);
    expect(snapshot.added).toBe(20_000);
    expect(JSON.stringify(snapshot).length).toBeLessThan(60_000);
    // The oldest are forgotten (checked anew if sent again); the newest still answer as before.
    expect(spawns.earlier(`${'0'.repeat(6)}${'x'.repeat(194)}`)).toBeNull();
    expect(spawns.earlier(`000999${'x'.repeat(194)}`)).toEqual({ from: 19_980, count: 20 });
  });
});

describe('added tasks and the mailbox', () => {
  it('a planner messages a task it added, and the added task reads it when it starts, also after continue-as-new', () => {
    const run = runOf([task('planner', { allowSpawn: true })]);
    const [planner] = run.claim(0);
    run.addTasks(
      {
        requestId: 'r1',
        parent: 'planner',
        fencingToken: planner.fencingToken,
        tasks: [task('worker', { dependsOn: ['planner'] })],
      },
      1,
    );
    run.sendMessage({ from: 'planner', fencingToken: planner.fencingToken, to: 'worker', body: 'take part 1' }, 2);
    run.settle('planner', planner.fencingToken, ok(), 3);
    const next = new TeamRun(unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(run.snapshot())))));
    const [worker] = next.claim(4);
    expect(worker.key).toBe('worker');
    expect(worker.inbox?.map((m) => m.body)).toEqual(['take part 1']);
  });
});
