import { describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_MS, PLAN_LIMITS } from '../../src/plan/schema';
import { validatePlan, type PlanProblem } from '../../src/plan/validate';
import { scopesOverlap } from '../../src/team/scheduling';

const plan = (tasks: unknown[], extra: Record<string, unknown> = {}) => ({ name: 'p', tasks, ...extra });
const noop = (key: string, extra: Record<string, unknown> = {}) => ({ key, executor: { kind: 'noop' }, ...extra });
function problemsOf(input: unknown, knownKinds?: string[]): PlanProblem[] {
  const result = validatePlan(input, knownKinds ? { knownKinds } : {});
  if (result.ok) throw new Error('expected the plan to be refused');
  return result.problems;
}

describe('executor kinds a plain object already answers to are refused, not looked up', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'kind %j is a clean problem',
    (kind) => {
      const problems = problemsOf(plan([{ key: 'a', executor: { kind } }]));
      expect(problems).toEqual([
        { path: 'tasks[0].executor.kind', code: 'schema', message: `executor kind "${kind}" is a reserved name` },
      ]);
    },
  );
});

describe('unknown executor kinds, where the caller knows its kinds (teamrun validate)', () => {
  it('a typo of a built-in kind is refused with a did-you-mean', () => {
    expect(problemsOf(plan([{ key: 'a', executor: { kind: 'shel', command: 'true' } }]), [])).toMatchObject([
      {
        path: 'tasks[0].executor.kind',
        code: 'unknown_executor_kind',
        message: expect.stringContaining('(did you mean "shell"?)'),
      },
    ]);
  });

  it('a declared custom kind passes, and a typo of it is pointed at it', () => {
    expect(
      validatePlan(plan([{ key: 'a', executor: { kind: 'acme.deploy' } }]), { knownKinds: ['acme.deploy'] }).ok,
    ).toBe(true);
    expect(problemsOf(plan([{ key: 'a', executor: { kind: 'acme.deplyo' } }]), ['acme.deploy'])[0].message).toContain(
      'did you mean "acme.deploy"?',
    );
  });

  it('the workflow, which cannot know its workers, lets any well-formed kind through', () => {
    expect(validatePlan(plan([{ key: 'a', executor: { kind: 'shel' } }])).ok).toBe(true);
  });
});

describe('durations are bounded to what timers honour (2^31-1 ms)', () => {
  const cases: Array<[string, unknown, string]> = [
    [
      'a shell timeout of 3e9 ms',
      plan([{ key: 'a', executor: { kind: 'shell', command: 'true', timeoutMs: 3e9 } }]),
      'tasks[0].executor.timeoutMs',
    ],
    ['a sleep of 3e9 ms', plan([{ key: 'a', executor: { kind: 'sleep', ms: 3e9 } }]), 'tasks[0].executor.ms'],
    [
      'an http timeout',
      plan([{ key: 'a', executor: { kind: 'http', url: 'http://x', timeoutMs: 2 ** 31 } }]),
      'tasks[0].executor.timeoutMs',
    ],
    [
      'an llm timeout',
      plan([{ key: 'a', executor: { kind: 'llm', model: 'm', prompt: 'p', timeoutMs: 2 ** 31 } }]),
      'tasks[0].executor.timeoutMs',
    ],
    ['a lease TTL', plan([noop('a')], { lease: { ttlMs: 2 ** 31 } }), 'lease.ttlMs'],
    ['a task lease TTL', plan([noop('a', { lease: { ttlMs: 2 ** 31 } })]), 'tasks[0].lease.ttlMs'],
    ['a wall budget', plan([noop('a')], { budget: { maxWallMs: 2 ** 31 } }), 'budget.maxWallMs'],
    ['an adjudication timeout', plan([noop('a')], { adjudicationTimeoutMs: 2 ** 31 }), 'adjudicationTimeoutMs'],
  ];
  it.each(cases)('%s is a problem naming the field and the maximum', (_, input, path) => {
    const [problem] = problemsOf(input);
    expect(problem.path).toBe(path);
    expect(problem.message).toContain(String(MAX_TIMEOUT_MS));
  });

  it('2^31-1 itself is fine', () => {
    expect(validatePlan(plan([{ key: 'a', executor: { kind: 'sleep', ms: MAX_TIMEOUT_MS } }])).ok).toBe(true);
  });
});

describe('scopes', () => {
  it('are normalised: "./docs//", "docs/" and "docs" are one resource', () => {
    const result = validatePlan(plan([noop('a', { scope: ['./docs//', 'src/./api/', '/', '*', '.'] })]));
    expect(result.ok && result.plan.tasks[0].scope).toEqual(['docs', 'src/api', '*', '*', '*']);
  });

  it.each([
    ['../secrets', 'has a ".." segment'],
    ['docs/../../etc', 'has a ".." segment'],
    ['/etc/passwd', 'absolute path outside the workspace'],
  ])('refuses %j: %s', (scope, message) => {
    expect(problemsOf(plan([noop('a', { scope: [scope] })]))).toMatchObject([
      { path: 'tasks[0].scope[0]', code: 'invalid_scope', message: expect.stringContaining(message) },
    ]);
  });

  it('"*" (or "/") is exclusive with every task that has any scope, and with no unscoped one', () => {
    expect(scopesOverlap(['*'], ['docs'])).toBe(true);
    expect(scopesOverlap(['src/a'], ['*'])).toBe(true);
    expect(scopesOverlap(['*'], [])).toBe(false);
  });
});

describe('a plan must fit the payload limit', () => {
  it('refuses a plan over the JSON bound with its size', () => {
    const command = 'x'.repeat(60_000);
    const tasks = Array.from({ length: 30 }, (_, i) => ({
      key: `t${i}`,
      executor: { kind: 'shell', command: `${i}${command}` },
    }));
    const problems = problemsOf(plan(tasks));
    expect(problems[0]).toMatchObject({ path: '(plan)', code: 'plan_too_large' });
    expect(problems[0].message).toMatch(/the plan is \d+ bytes of JSON, over the 1572864-byte bound/);
  });

  it('refuses a plan whose packed form would leave no room for the run state', () => {
    const tasks = Array.from({ length: 14 }, (_, i) => ({
      key: `t${i}`,
      executor: { kind: 'shell', command: `${i}${'y'.repeat(50_000)}` },
    }));
    expect(problemsOf(plan(tasks))[0]).toMatchObject({
      code: 'plan_too_large',
      message: expect.stringContaining(`${PLAN_LIMITS.maxPackedPlanBytes}-byte bound`),
    });
  });
});

describe('the did-you-mean search is bounded', () => {
  it('a 20,000-task plan with 30 misspelt dependencies validates in well under a second, each with its suggestion', () => {
    const key = (i: number) =>
      `task-${String(i).padStart(6, '0')}-build-step-of-the-nightly-documentation-pipeline-for-every-package`;
    const tasks = Array.from({ length: PLAN_LIMITS.maxTasks }, (_, i) => ({
      key: key(i),
      executor: { kind: 'noop' },
      dependsOn:
        i > 0 && i % 666 === 0
          ? [
              key(i - 1)
                .replace('task', 'tsak')
                .replace('step', 'stpe'),
            ]
          : [],
    }));
    validatePlan(plan(tasks.slice(0, 100))); // warm up the schema
    const started = performance.now();
    const problems = problemsOf(plan(tasks));
    const ms = performance.now() - started;
    const unknown = problems.filter((p) => p.code === 'unknown_dependency');
    expect(unknown).toHaveLength(30);
    for (const p of unknown) expect(p.message).toMatch(/\(did you mean "task-\d{6}-build-step-of-[a-z-]+"\?\)/);
    expect(unknown[29].message).toContain(`did you mean "${key(19_979)}"`);
    // A guard against the quadratic search, not a speed target: ~150 ms measured alone, 5-7 s seen
    // with eight test suites on two cores; the search before the index took minutes on keys this long.
    expect(ms).toBeLessThan(30_000);
  });

  it('thousands of misspelt long keys still validate fast (suggestions stop at the budget)', () => {
    const key = (i: number) => `k${String(i).padStart(6, '0')}`.padEnd(120, 'x');
    const tasks = Array.from({ length: 5_000 }, (_, i) => ({
      key: key(i),
      executor: { kind: 'noop' },
      dependsOn: i ? [key(i - 1).replace('k', 'q')] : [],
    }));
    const started = performance.now();
    expect(problemsOf(plan(tasks))).toHaveLength(4_999);
    // As above: a guard against minutes of search, generous for a loaded machine.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});

describe('who may act is a bounded list', () => {
  const names = (n: number) => Array.from({ length: n }, (_, i) => `operator-${i}`);

  it(`governance.operators takes ${PLAN_LIMITS.maxOperators} names and refuses one more, at its path`, () => {
    expect(validatePlan(plan([noop('a')], { governance: { operators: names(PLAN_LIMITS.maxOperators) } })).ok).toBe(
      true,
    );
    const problems = problemsOf(plan([noop('a')], { governance: { operators: names(PLAN_LIMITS.maxOperators + 1) } }));
    expect(problems).toMatchObject([{ path: 'governance.operators', code: 'schema' }]);
    expect(problems[0].message).toContain(String(PLAN_LIMITS.maxOperators));
  });

  it('an operator name of 201 characters is refused', () => {
    const problems = problemsOf(plan([noop('a')], { governance: { operators: ['x'.repeat(201)] } }));
    expect(problems).toMatchObject([{ path: 'governance.operators[0]', code: 'schema' }]);
  });
});
