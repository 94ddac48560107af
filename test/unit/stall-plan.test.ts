import { describe, expect, it } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { formatProblems, validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';

type TaskInput = TeamPlanInput['tasks'][number];

function runOf(tasks: TaskInput[], extra: Partial<TeamPlanInput> = {}): TeamRun {
  const validation = validatePlan({ name: 'unit', ...extra, tasks });
  if (!validation.ok) throw new Error(formatProblems(validation.problems));
  return TeamRun.start(validation.plan, 'wf-unit', 0);
}

describe('stallAfterMs in a plan, and a stalled attempt settled', () => {
  it('is bounded: under a second is refused, on the plan and on a task, naming the path', () => {
    const result = validatePlan({
      name: 'p',
      stallAfterMs: 999,
      tasks: [{ key: 'a', stallAfterMs: 10.5, executor: { kind: 'noop' } }],
    });
    expect(result.ok).toBe(false);
    const text = result.ok ? '' : formatProblems(result.problems);
    expect(text).toContain('stallAfterMs: at least 1000 ms');
    expect(text).toContain('tasks[0].stallAfterMs');
  });

  it("a claim carries the task's stallAfterMs, else the plan's, else none", () => {
    const tasks: TaskInput[] = [
      { key: 'own', stallAfterMs: 5_000, executor: { kind: 'noop' } },
      { key: 'plan', executor: { kind: 'noop' } },
    ];
    const claims = runOf(tasks, { teammates: 2, stallAfterMs: 60_000 }).claim(0);
    expect(claims.map((c) => [c.key, c.stallAfterMs])).toEqual([
      ['own', 5_000],
      ['plan', 60_000],
    ]);
    const [none] = runOf([{ key: 'x', executor: { kind: 'noop' } }]).claim(0);
    expect('stallAfterMs' in none).toBe(false);
  });

  it('a TEAM_TASK_STALLED failure goes to adjudication with its reason and a task:stalled event, attempts left', () => {
    const run = runOf([{ key: 'a', executor: { kind: 'noop' } }], { retry: { maxAttempts: 3 } });
    const [claim] = run.claim(0);
    const message =
      'the attempt made no progress for its stallAfterMs (5000 ms) and was stopped; last step: x, 5.1 s ago';
    run.settle(
      'a',
      claim.fencingToken,
      { kind: 'failed', message, nonRetryable: true, errorType: 'TEAM_TASK_STALLED' },
      9,
    );
    expect(run.tasksPage()[0]).toMatchObject({ status: 'adjudication', attempts: 1 });
    expect(run.adjudicationsView()).toMatchObject([{ key: 'a', code: 'TEAM_TASK_STALLED', reason: message }]);
    const types = run.eventsView({ limit: 100 }).events.map((e) => e.type);
    expect(types).toContain('task:stalled');
    expect(types.indexOf('task:stalled')).toBeLessThan(types.indexOf('task:adjudication-required'));
  });
});
