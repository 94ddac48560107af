import { describe, expect, it } from 'vitest';
import { validatePlan } from '../../src/plan/validate';
import { runOf, task } from '../helpers/team-run';

const keys = (claims: Array<{ key: string }>) => claims.map((c) => c.key);

describe("a plan's defaultScope: the scope of every task that names none", () => {
  it('without one, tasks that name no scope claim nothing and run side by side (as before)', () => {
    const run = runOf([task('a'), task('b'), task('c', { scope: ['docs'] })]);
    expect(keys(run.claim(0))).toEqual(['a', 'b', 'c']);
  });

  it('with ["*"], each unscoped task holds the whole workspace: one at a time, never beside a scoped task', () => {
    const run = runOf([task('a'), task('b'), task('c', { scope: ['docs'] })], { defaultScope: ['*'] });
    const [first] = run.claim(0);
    expect(first.key).toBe('a');
    expect(run.claim(1)).toEqual([]);
    run.settle('a', first.fencingToken, { kind: 'completed' }, 2);
    expect(keys(run.claim(3))).toEqual(['b']);
  });

  it('with a path, unscoped tasks share it exclusively while tasks with disjoint scopes run beside them', () => {
    const run = runOf([task('a'), task('b'), task('c', { scope: ['src'] })], { defaultScope: ['./docs//'] });
    expect(keys(run.claim(0))).toEqual(['a', 'c']);
  });

  it('is normalised like a task scope, and refused outside the workspace with its path', () => {
    const bad = validatePlan({ name: 'x', defaultScope: ['../up'], tasks: [task('a')] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems[0]).toMatchObject({ path: 'defaultScope[0]', code: 'invalid_scope' });
    const good = validatePlan({ name: 'x', defaultScope: ['/'], tasks: [task('a')] });
    expect(good.ok && good.plan.defaultScope).toEqual(['*']);
  });
});

describe('scope events inside one run', () => {
  it('records task:scope-acquired at the claim and task:scope-released when the lease ends, with the scope', () => {
    const run = runOf([task('a', { scope: ['docs/'] }), task('b', { scope: ['docs/api'] }), task('c')], {
      defaultScope: ['src'],
    });
    const claimed = run.claim(0);
    expect(keys(claimed)).toEqual(['a', 'c']);
    expect(claimed.map((c) => c.scope)).toEqual([['docs'], ['src']]);
    run.settle('a', claimed[0].fencingToken, { kind: 'failed', message: 'no', nonRetryable: false }, 5);
    const scoped = run.eventsView({ limit: 100 }).events.filter((e) => e.type.startsWith('task:scope-'));
    expect(scoped.map((e) => [e.type, e.key, e.scope, e.why ?? null, e.at])).toEqual([
      ['task:scope-acquired', 'a', ['docs'], null, 0],
      ['task:scope-acquired', 'c', ['src'], null, 0],
      ['task:scope-released', 'a', ['docs'], 'failed', 5],
    ]);
  });
});
