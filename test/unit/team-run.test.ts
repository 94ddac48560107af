import { describe, expect, it } from 'vitest';
import { TeamPlanSchema, type TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { MAX_TASKS_PAGE, TeamRun } from '../../src/team/run';
import { scopesOverlap } from '../../src/team/scheduling';
import type { AttemptOutcome, Claim } from '../../src/team/types';
import { wakesAt } from '../helpers/team-run';

type TaskInput = TeamPlanInput['tasks'][number];

const task = (key: string, extra: Partial<TaskInput> = {}): TaskInput => ({
  key,
  executor: { kind: 'noop' },
  ...extra,
});

/** A run of `tasks` started at time 0 (the clock is a plain number the test moves). */
function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'unit', ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-unit', 0);
}

const ok = (output?: unknown): AttemptOutcome => ({ kind: 'completed', output });
const failed = (message = 'boom', nonRetryable = false): AttemptOutcome => ({ kind: 'failed', message, nonRetryable });
const keys = (claims: Claim[]) => claims.map((c) => c.key);
const statusOf = (run: TeamRun, key: string) => run.tasksPage().find((t) => t.key === key)?.status;
const eventsOf = (run: TeamRun, type: string) =>
  run.eventsView({ limit: 10_000 }).events.filter((e) => e.type === type);

describe('claim order and teammates', () => {
  it('claims high before normal before low, and keeps plan order within a priority', () => {
    const run = runOf(
      [
        task('low-1', { priority: 'low' }),
        task('normal-1'),
        task('high-1', { priority: 'high' }),
        task('normal-2'),
        task('high-2', { priority: 'high' }),
      ],
      { teammates: 5 },
    );
    expect(keys(run.claim(0))).toEqual(['high-1', 'high-2', 'normal-1', 'normal-2', 'low-1']);
  });

  it('never has more than `teammates` attempts out at once', () => {
    const run = runOf(
      ['a', 'b', 'c', 'd', 'e'].map((k) => task(k)),
      { teammates: 2 },
    );
    const first = run.claim(0);
    expect(keys(first)).toEqual(['a', 'b']);
    expect(run.claim(1)).toEqual([]);
    expect(run.status(1).teammates).toEqual({ requested: 2, active: 2 });

    run.settle('a', first[0].fencingToken, ok(), 2);
    const second = run.claim(2);
    expect(keys(second)).toEqual(['c']);
    // The freed slot is the one handed out again.
    expect(second[0].holder).toBe(first[0].holder);
    expect(run.activeCount).toBe(2);
  });
});

describe('scopes', () => {
  it.each([
    { a: ['docs/'], b: ['docs/api'], overlap: true },
    { a: ['docs'], b: ['docs/api/v2'], overlap: true },
    { a: ['docs/api/'], b: ['docs/api'], overlap: true },
    { a: ['a'], b: ['b'], overlap: false },
    { a: ['docs'], b: ['docs-old'], overlap: false },
    { a: ['src/x', 'docs'], b: ['lib', 'docs/'], overlap: true },
    { a: [], b: ['docs'], overlap: false },
  ])('$a and $b overlap: $overlap', ({ a, b, overlap }) => {
    expect(scopesOverlap(a, b)).toBe(overlap);
    expect(scopesOverlap(b, a)).toBe(overlap);
  });

  it('holds back a task whose scope overlaps a running one and runs disjoint scopes together', () => {
    const run = runOf(
      [task('docs', { scope: ['docs/'] }), task('api-docs', { scope: ['docs/api'] }), task('src', { scope: ['src'] })],
      { teammates: 3 },
    );
    const first = run.claim(0);
    expect(keys(first)).toEqual(['docs', 'src']);
    expect(run.claim(1)).toEqual([]);
    run.settle('docs', first[0].fencingToken, ok(), 2);
    expect(keys(run.claim(2))).toEqual(['api-docs']);
  });
});

describe('dependencies', () => {
  it('unblocks a dependent only when every one of its dependencies succeeded', () => {
    const run = runOf(
      [
        task('a'),
        task('b', { dependsOn: ['a'] }),
        task('c', { dependsOn: ['a'] }),
        task('d', { dependsOn: ['b', 'c'] }),
      ],
      { teammates: 3 },
    );
    const [a] = run.claim(0);
    expect(a.key).toBe('a');
    expect(statusOf(run, 'b')).toBe('blocked');
    run.settle('a', a.fencingToken, ok(), 1);
    const [b, c] = run.claim(1);
    expect([b.key, c.key]).toEqual(['b', 'c']);
    run.settle('b', b.fencingToken, ok(), 2);
    expect(run.claim(2)).toEqual([]);
    expect(statusOf(run, 'd')).toBe('blocked');
    run.settle('c', c.fencingToken, ok(), 3);
    expect(keys(run.claim(3))).toEqual(['d']);
  });

  it('hands a claim the outputs of its dependencies (null for one that output nothing)', () => {
    const run = runOf([task('a'), task('b'), task('c', { dependsOn: ['a', 'b'] })]);
    const [a, b] = run.claim(0);
    run.settle('a', a.fencingToken, ok({ files: 3 }), 1);
    run.settle('b', b.fencingToken, ok(), 1);
    const [c] = run.claim(1);
    expect(c.dependencyOutputs).toEqual({ a: { files: 3 }, b: null });
    expect(run.claim(2)).toEqual([]);
  });
});

describe('failures and retries', () => {
  it('puts a failed attempt back after its backoff, and wakes the run then', () => {
    const run = runOf([task('flaky')], { retry: { maxAttempts: 3, backoffMs: 1_000 } });
    const [first] = run.claim(0);
    run.settle('flaky', first.fencingToken, failed('exit code 1'), 100);
    const view = run.tasksPage()[0];
    expect(view).toMatchObject({ status: 'ready', attempts: 1, lastError: 'exit code 1' });
    expect(wakesAt(run, 100)).toBe(1_100);
    expect(run.claim(1_099)).toEqual([]);
    const [second] = run.claim(1_100);
    expect(second).toMatchObject({ key: 'flaky', attempt: 2 });
    expect(second.fencingToken).toBeGreaterThan(first.fencingToken);
    expect(eventsOf(run, 'task:failed')).toEqual([expect.objectContaining({ key: 'flaky', willRetry: true })]);
  });

  it('wakes at the end of a backoff even while another ready task waits for a busy scope', () => {
    const run = runOf([task('writer', { scope: ['db'] }), task('flaky'), task('reader', { scope: ['db'] })], {
      teammates: 3,
      retry: { maxAttempts: 3, backoffMs: 1_000 },
    });
    const claims = run.claim(0);
    expect(keys(claims)).toEqual(['writer', 'flaky']);
    run.settle('flaky', claims[1].fencingToken, failed(), 200);
    // `reader` has been claimable since 0 but waits on `writer`'s scope; nothing but time frees `flaky`.
    expect(run.claim(200)).toEqual([]);
    expect(wakesAt(run, 200)).toBe(1_200);
    expect(keys(run.claim(1_200))).toEqual(['flaky']);
  });

  it('fails a task whose attempts are spent and skips everything downstream, saying why', () => {
    const run = runOf(
      [
        task('build', { retry: { maxAttempts: 2 } }),
        task('test', { dependsOn: ['build'] }),
        task('ship', { dependsOn: ['test'] }),
        task('docs'),
      ],
      { retry: { maxAttempts: 3, backoffMs: 10 } },
    );
    let [build] = run.claim(0).filter((c) => c.key === 'build');
    run.settle('build', build.fencingToken, failed('exit 2'), 1);
    [build] = run.claim(11).filter((c) => c.key === 'build');
    expect(build.attempt).toBe(2);
    run.settle('build', build.fencingToken, failed('exit 2 again'), 12);

    const views = Object.fromEntries(run.tasksPage().map((t) => [t.key, t]));
    expect(views.build).toMatchObject({ status: 'failed', attempts: 2, lastError: 'exit 2 again' });
    expect(views.test).toMatchObject({ status: 'skipped', skipReason: 'dependency "build" failed' });
    expect(views.ship).toMatchObject({ status: 'skipped', skipReason: 'dependency "build" failed' });
    expect(wakesAt(run, 12)).toBeNull();
    const docs = run.activeClaims().find((c) => c.key === 'docs')!;
    run.settle('docs', docs.fencingToken, ok(), 13);
    expect(run.phase()).toBe('done');
    expect(run.finish(14)).toMatchObject({
      status: 'failed',
      stats: { succeeded: 1, failed: 1, skipped: 2 },
      executions: 3,
    });
  });

  it('fails a non-retryable failure at once, whatever attempts are left', () => {
    const run = runOf([task('call'), task('after', { dependsOn: ['call'] })], {
      retry: { maxAttempts: 5, backoffMs: 10 },
    });
    const [call] = run.claim(0);
    run.settle('call', call.fencingToken, failed('HTTP 400', true), 1);
    expect(run.tasksPage()).toEqual([
      expect.objectContaining({ key: 'call', status: 'failed', attempts: 1, lastError: 'HTTP 400' }),
      expect.objectContaining({ key: 'after', status: 'skipped', skipReason: 'dependency "call" failed' }),
    ]);
    expect(run.claim(1_000)).toEqual([]);
  });
});

describe('fencing', () => {
  it('gives every attempt of a task a strictly greater token, whatever ended the previous one', () => {
    const run = runOf([task('t')], { retry: { maxAttempts: 10, backoffMs: 0 } });
    const endings: AttemptOutcome[] = [failed(), { kind: 'lease-lost' }, { kind: 'released' }, failed(), ok()];
    const tokens: number[] = [];
    endings.forEach((outcome, i) => {
      const [claim] = run.claim(i * 10);
      expect(claim.activityId).toBe(`t#${claim.fencingToken}`);
      expect(claim.leaseId).toBe(`wf-unit/t/${claim.fencingToken}`);
      tokens.push(claim.fencingToken);
      run.settle('t', claim.fencingToken, outcome, i * 10 + 1);
    });
    expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(run.tasksPage()[0]).toMatchObject({ status: 'succeeded', fencingToken: tokens[tokens.length - 1] });
  });

  it('ignores a result from any attempt but the one it waits on, and records it', () => {
    const run = runOf([task('t'), task('next', { dependsOn: ['t'] })], { retry: { maxAttempts: 3, backoffMs: 0 } });
    const [first] = run.claim(0);
    run.settle('t', first.fencingToken, { kind: 'lease-lost' }, 1);
    const [second] = run.claim(1);
    const before = { tasks: run.tasksPage(), claims: run.activeClaims(), status: run.status(2) };

    // The first attempt's worker comes back with a success: it must not become one.
    run.settle('t', first.fencingToken, ok({ phantom: true }), 2);
    run.settle('t', second.fencingToken + 1, ok(), 2);
    run.settle('nope', 1, ok(), 2);

    expect({ tasks: run.tasksPage(), claims: run.activeClaims(), status: run.status(2) }).toEqual(before);
    expect(eventsOf(run, 'attempt:stale-result').map((e) => [e.key, e.fencingToken])).toEqual([
      ['t', first.fencingToken],
      ['t', second.fencingToken + 1],
      ['nope', 1],
    ]);
    expect(run.claim(3)).toEqual([]);

    run.settle('t', second.fencingToken, ok({ real: true }), 4);
    expect(run.claim(4)[0].dependencyOutputs).toEqual({ t: { real: true } });
  });
});

describe('snapshot', () => {
  const views = (run: TeamRun, now: number) => ({
    status: run.status(now),
    phase: run.phase(),
    tasks: run.tasksPage(),
    claims: run.activeClaims(),
    events: run.eventsView({ limit: 10_000 }),
    budget: run.budgetView(now),
    adjudications: run.adjudicationsView(),
    // What the workflow waits for next, and until when.
    wait: run.beginWait(now, false),
  });

  it('restores a run mid-flight to the same views, and both go on the same way', () => {
    const run = runOf(
      [
        task('a'),
        task('b', { dependsOn: ['a'] }),
        task('c', { dependsOn: ['a'], scope: ['out/'] }),
        task('d', { dependsOn: ['b', 'c'] }),
        task('e', { priority: 'low', scope: ['out/c'] }),
        task('f', { retry: { maxAttempts: 1 } }),
        task('g', { dependsOn: ['f'] }),
      ],
      { teammates: 3, retry: { maxAttempts: 3, backoffMs: 500 }, budget: { maxTasks: 50 } },
    );
    const first = run.claim(0);
    expect(keys(first)).toEqual(['a', 'f', 'e']);
    run.settle('a', first[0].fencingToken, ok({ n: 1 }), 10);
    run.settle('f', first[1].fencingToken, failed('no'), 11);
    const second = run.claim(12);
    expect(keys(second)).toEqual(['b']);
    run.settle('b', second[0].fencingToken, failed('flaky'), 20);

    const restored = new TeamRun(JSON.parse(JSON.stringify(run.snapshot())));
    expect(views(restored, 30)).toEqual(views(run, 30));

    for (const r of [run, restored]) {
      r.settle('e', first[2].fencingToken, ok(), 40);
    }
    expect(restored.claim(600)).toEqual(run.claim(600));
    expect(views(restored, 600)).toEqual(views(run, 600));
  });
});

describe('the tasks query on a big run', () => {
  it('answers one bounded page and pages on with offset', () => {
    const plan = TeamPlanSchema.parse({
      name: 'big',
      tasks: Array.from({ length: 2_500 }, (_, i) => ({ key: `t${i}`, executor: { kind: 'noop' } })),
    });
    const run = TeamRun.start(plan, 'wf', 0);
    expect(run.tasksPage().length).toBe(1_000);
    const first = run.tasksPage({ limit: 100_000 });
    expect(first.length).toBe(MAX_TASKS_PAGE);
    const rest = run.tasksPage({ offset: MAX_TASKS_PAGE, limit: 100_000 });
    expect(rest.map((t) => t.key)).toEqual(plan.tasks.slice(MAX_TASKS_PAGE).map((t) => t.key));
  });
});
