import { describe, expect, it } from 'vitest';
import { PLAN_LIMITS, type TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan, type PlanProblem } from '../../src/plan/validate';

type TaskInput = TeamPlanInput['tasks'][number];

const noop = { kind: 'noop' } as const;
const task = (key: string, dependsOn: string[] = [], extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  dependsOn,
  executor: noop,
  ...extra,
});
const plan = (tasks: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'p', tasks, ...extra });

function problemsOf(input: unknown): PlanProblem[] {
  const result = validatePlan(input);
  if (result.ok) throw new Error('expected the plan to be refused');
  return result.problems;
}

describe('a plan with a broken graph is refused with every problem and where it is', () => {
  const cases: Array<{ scenario: string; input: unknown; expected: Array<Partial<PlanProblem>> }> = [
    {
      scenario: 'duplicate keys',
      input: plan([task('build'), task('test'), task('build')]),
      expected: [
        { path: 'tasks[2].key', code: 'duplicate_key', message: 'duplicate task key "build" (first used at tasks[0])' },
      ],
    },
    {
      scenario: 'an unknown dependency, with a did-you-mean',
      input: plan([task('build'), task('test', ['bulid'])]),
      expected: [
        {
          path: 'tasks[1].dependsOn[0]',
          code: 'unknown_dependency',
          message: 'unknown task "bulid" (did you mean "build"?)',
        },
      ],
    },
    {
      scenario: 'an unknown dependency like nothing in the plan, without a guess',
      input: plan([task('build'), task('test', ['deploy-to-production'])]),
      expected: [
        { path: 'tasks[1].dependsOn[0]', code: 'unknown_dependency', message: 'unknown task "deploy-to-production"' },
      ],
    },
    {
      scenario: 'a self-dependency',
      input: plan([task('build', ['build'])]),
      expected: [{ path: 'tasks[0].dependsOn[0]', code: 'self_dependency', message: 'task "build" depends on itself' }],
    },
    {
      scenario: 'a dependency listed twice',
      input: plan([task('a'), task('b', ['a', 'a'])]),
      expected: [{ path: 'tasks[1].dependsOn[1]', code: 'duplicate_dependency' }],
    },
    {
      scenario: 'a cycle, printed as its path',
      input: plan([task('a', ['b']), task('b', ['c']), task('c', ['a']), task('d', ['a'])]),
      expected: [{ path: 'tasks[0].dependsOn', code: 'cycle', message: 'dependency cycle: a -> b -> c -> a' }],
    },
    {
      scenario: 'an empty task list',
      input: plan([]),
      expected: [{ path: 'tasks', code: 'empty', message: 'a plan needs at least one task' }],
    },
    {
      scenario: 'too many tasks',
      input: plan(Array.from({ length: PLAN_LIMITS.maxTasks + 1 }, (_, i) => task(`t${i}`))),
      expected: [{ path: 'tasks', code: 'schema', message: `at most ${PLAN_LIMITS.maxTasks} tasks` }],
    },
    {
      scenario: 'a key over 128 characters',
      input: plan([task('k'.repeat(129))]),
      expected: [{ path: 'tasks[0].key', code: 'schema', message: 'task key must be 1..128 chars of [A-Za-z0-9._:-]' }],
    },
    {
      scenario: 'too many teammates',
      input: plan([task('a')], { teammates: PLAN_LIMITS.maxTeammates + 1 }),
      expected: [{ path: 'teammates', code: 'schema' }],
    },
    {
      scenario: 'a lease shorter than a second',
      input: plan([task('a')], { lease: { ttlMs: 500 } }),
      expected: [{ path: 'lease.ttlMs', code: 'schema' }],
    },
  ];

  it.each(cases)('$scenario', ({ input, expected }) => {
    const problems = problemsOf(input);
    expect(problems).toHaveLength(expected.length);
    expected.forEach((want, i) => expect(problems[i]).toMatchObject(want));
  });
});

describe('built-in executor kinds check their fields', () => {
  const refused: Array<{ scenario: string; executor: Record<string, unknown>; path: string; message?: RegExp }> = [
    { scenario: 'shell without a command', executor: { kind: 'shell' }, path: 'tasks[0].executor.command' },
    {
      scenario: 'shell with an empty command',
      executor: { kind: 'shell', command: '' },
      path: 'tasks[0].executor.command',
    },
    {
      scenario: 'shell with a non-string env value',
      executor: { kind: 'shell', command: 'true', env: { N: 1 } },
      path: 'tasks[0].executor.env.N',
    },
    {
      scenario: 'http with a URL that is not http(s)',
      executor: { kind: 'http', url: 'ftp://example.test/x' },
      path: 'tasks[0].executor.url',
      message: /http\(s\) URL/,
    },
    {
      scenario: 'http with an unknown method',
      executor: { kind: 'http', url: 'http://x.test', method: 'BREW' },
      path: 'tasks[0].executor.method',
    },
    { scenario: 'sleep with a negative duration', executor: { kind: 'sleep', ms: -1 }, path: 'tasks[0].executor.ms' },
    { scenario: 'sleep with a string duration', executor: { kind: 'sleep', ms: '10' }, path: 'tasks[0].executor.ms' },
    {
      scenario: 'noop with a field it does not take',
      executor: { kind: 'noop', command: 'x' },
      path: 'tasks[0].executor.command',
    },
    {
      scenario: 'llm with both prompt and messages',
      executor: { kind: 'llm', model: 'm', prompt: 'p', messages: [{ role: 'user', content: 'c' }] },
      path: 'tasks[0].executor',
      message: /exactly one of "prompt" or "messages"/,
    },
    { scenario: 'a kind name with spaces', executor: { kind: 'my kind' }, path: 'tasks[0].executor.kind' },
  ];

  it.each(refused)('refuses $scenario at $path', ({ executor, path, message }) => {
    const problems = problemsOf(plan([{ key: 'a', executor }]));
    expect(problems.map((p) => p.path)).toContain(path);
    if (message) expect(formatProblems(problems)).toMatch(message);
  });

  it('accepts any fields for a custom kind (the worker that runs it checks them)', () => {
    const result = validatePlan(plan([{ key: 'a', executor: { kind: 'acme.deploy', target: 'prod', replicas: 3 } }]));
    expect(result.ok).toBe(true);
  });
});

describe('a valid plan', () => {
  it('comes back with every default filled in', () => {
    const result = validatePlan(plan([task('a')]));
    if (!result.ok) throw new Error(formatProblems(result.problems));
    expect(result.plan).toMatchObject({
      teammates: 2,
      lease: { ttlMs: 30_000 },
      retry: { maxAttempts: 3, backoffMs: 1_000 },
      budget: {},
      awaitAdjudication: true,
      adjudicationTimeoutMs: 7 * 24 * 3600_000,
    });
    expect(result.plan.tasks[0]).toMatchObject({ dependsOn: [], priority: 'normal', scope: [], onLeaseLost: 'retry' });
  });

  it('keeps what the user wrote over the defaults', () => {
    const result = validatePlan(
      plan([task('a', [], { retry: { maxAttempts: 1 } })], {
        teammates: 8,
        retry: { backoffMs: 50 },
        awaitAdjudication: false,
      }),
    );
    if (!result.ok) throw new Error(formatProblems(result.problems));
    expect(result.plan.teammates).toBe(8);
    expect(result.plan.retry).toEqual({ maxAttempts: 3, backoffMs: 50 });
    expect(result.plan.awaitAdjudication).toBe(false);
    expect(result.plan.tasks[0].retry).toEqual({ maxAttempts: 1 });
  });

  it('checks a 20,000-task chain without overflowing the stack', () => {
    const chain = Array.from({ length: PLAN_LIMITS.maxTasks }, (_, i) => task(`t${i}`, i ? [`t${i - 1}`] : []));
    const started = performance.now();
    expect(validatePlan(plan(chain)).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('finds the cycle that closes a 20,000-task chain, and prints it shortened', () => {
    const chain = Array.from({ length: PLAN_LIMITS.maxTasks }, (_, i) =>
      task(`t${i}`, [`t${(i + PLAN_LIMITS.maxTasks - 1) % PLAN_LIMITS.maxTasks}`]),
    );
    const [problem, ...rest] = problemsOf(plan(chain));
    expect(rest).toEqual([]);
    expect(problem.code).toBe('cycle');
    expect(problem.message).toMatch(/^dependency cycle: t0 -> t19999 -> t19998 -> .* -> t1 -> t0$/);
    expect(problem.message).toMatch(/\(\d+ more\)/);
    expect(problem.message.length).toBeLessThan(500);
  });
});

describe('every problem is reported, not just the first', () => {
  it('lists graph problems of different kinds together, cycles included', () => {
    const problems = problemsOf(
      plan([
        task('build'),
        task('build'),
        task('test', ['bulid']),
        task('lint', ['lint']),
        task('x', ['y']),
        task('y', ['x']),
      ]),
    );
    expect(problems.map((p) => `${p.path} ${p.code}`)).toEqual([
      'tasks[1].key duplicate_key',
      'tasks[2].dependsOn[0] unknown_dependency',
      'tasks[3].dependsOn[0] self_dependency',
      'tasks[4].dependsOn cycle',
    ]);
    expect(problems[3].message).toBe('dependency cycle: x -> y -> x');
  });

  it('lists schema problems of several tasks and the graph problems beside them', () => {
    const problems = problemsOf(
      plan([
        { key: 'build', executor: { kind: 'shell' } },
        { key: 'test', dependsOn: ['bulid'], executor: { kind: 'sleep', ms: -5 } },
        { key: 'deploy', dependsOn: ['test'], priority: 'urgent', executor: noop },
      ]),
    );
    const lines = formatProblems(problems).split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tasks\[0\]\.executor\.command: /),
        expect.stringMatching(/^tasks\[1\]\.executor\.ms: /),
        expect.stringMatching(/^tasks\[2\]\.priority: /),
        'tasks[1].dependsOn[0]: unknown task "bulid" (did you mean "build"?)',
      ]),
    );
    expect(lines).toHaveLength(4);
  });

  it('refuses input that is not a plan at all with a problem at the top', () => {
    expect(problemsOf(null)).toEqual([expect.objectContaining({ path: '(plan)', code: 'schema' })]);
    expect(problemsOf({ tasks: [task('a')] })).toEqual([expect.objectContaining({ path: 'name', code: 'schema' })]);
  });
});

describe('a misspelt field is named at its own path with a did-you-mean from the same object', () => {
  it.each([
    ['a task field', plan([{ key: 'a', depends_on: ['b'], executor: noop }]), 'tasks[0].depends_on', 'dependsOn'],
    ['the executor itself', plan([{ key: 'a', exector: noop }]), 'tasks[0].exector', 'executor'],
    ['a plan field', plan([task('a')], { budgte: { maxUsd: 1 } }), 'budgte', 'budget'],
    ['a budget field', plan([task('a')], { budget: { maxUSD: 1 } }), 'budget.maxUSD', 'maxUsd'],
    [
      'a field of a built-in executor, by its kind',
      plan([{ key: 'a', executor: { kind: 'shell', command: 'true', timeout_ms: 5 } }]),
      'tasks[0].executor.timeout_ms',
      'timeoutMs',
    ],
    [
      'a task retry field',
      plan([task('a', [], { retry: { maxAttempt: 2 } as never })]),
      'tasks[0].retry.maxAttempt',
      'maxAttempts',
    ],
  ])('%s', (_, input, path, guess) => {
    expect(problemsOf(input)).toContainEqual({
      path,
      code: 'unknown_field',
      message: `unknown field (did you mean "${guess}"?)`,
    });
  });

  it('says no more than "unknown field" when nothing is close', () => {
    expect(problemsOf(plan([task('a')], { sudo: true }))).toEqual([
      { path: 'sudo', code: 'unknown_field', message: 'unknown field' },
    ]);
  });
});

describe('budgetFits: a task reserving more before it starts than its run has', () => {
  const plan = (tasks: unknown[]) => ({ name: 'p', budget: { maxTokens: 1_000 }, tasks });

  it("is a problem for teamrun validate and start; the workflow's own validation still accepts the plan", () => {
    // An agent reserves its first call's maxTokens, 1,024 by default: past a run's 1,000 it could never start.
    const agent = plan([{ key: 'talk', executor: { kind: 'agent', model: 'mock', prompt: 'hi' } }]);
    expect(validatePlan(agent, { budgetFits: true })).toMatchObject({
      ok: false,
      problems: [{ path: 'tasks[0].executor.maxTokens', code: 'over_budget' }],
    });
    expect(validatePlan(agent).ok).toBe(true);
    // What fits exactly, or a run without the limit, is no problem.
    expect(
      validatePlan(plan([{ key: 'a', estimate: { tokens: 1_000 }, executor: { kind: 'noop' } }]), { budgetFits: true })
        .ok,
    ).toBe(true);
    expect(
      validatePlan(
        { name: 'p', tasks: [{ key: 'a', estimate: { tokens: 5_000 }, executor: { kind: 'noop' } }] },
        { budgetFits: true },
      ).ok,
    ).toBe(true);
  });

  it("checks each child plan against its own budget, under the team task's path", () => {
    const tree = plan([
      {
        key: 'lead',
        executor: {
          kind: 'team',
          plan: {
            name: 'c',
            budget: { maxTokens: 500 },
            tasks: [{ key: 'x', estimate: { tokens: 600 }, executor: { kind: 'noop' } }],
          },
        },
      },
    ]);
    const result = validatePlan(tree, { budgetFits: true });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems.map((p) => p.path)).toEqual([
      'tasks[0].executor.plan.tasks[0].estimate.tokens',
    ]);
  });
});
