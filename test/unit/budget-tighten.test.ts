import { describe, expect, it } from 'vitest';
import { codeOf, runOf, task } from '../helpers/team-run';

const tasks = ['a', 'b', 'c'].map((key) => task(key));

describe("tightenBudget: a running run's limits only tighten", () => {
  it('lowers a limit, adds one the plan did not set, and records who did it', () => {
    const run = runOf(tasks, { budget: { maxTokens: 10_000 } });
    const verdict = run.tightenBudget({ maxTokens: 5_000, maxUsd: 2, actor: 'alice', requestId: 'r1' }, 10);
    expect(verdict).toMatchObject({ ok: true, budget: { limits: { maxTokens: 5_000, maxUsd: 2 }, stopped: false } });
    expect(run.budgetView(10).limits).toMatchObject({ maxTokens: 5_000, maxUsd: 2 });
    const event = run.eventsView({}).events.find((e) => e.type === 'budget:tightened');
    expect(event).toMatchObject({ actor: 'alice', requestId: 'r1', limits: { maxTokens: 5_000, maxUsd: 2 } });
  });

  it('refuses a loosening with loosening_refused, naming the limit, and changes nothing', () => {
    const run = runOf(tasks, { budget: { maxTokens: 10_000, maxUsd: 5 } });
    expect(codeOf(() => run.validateTightenBudget({ maxTokens: 20_000 }))).toBe('loosening_refused');
    expect(() => run.tightenBudget({ maxUsd: 4, maxTokens: 20_000 }, 10)).toThrow(
      /maxTokens 10000 -> 20000 would loosen the budget/,
    );
    expect(run.budgetView(10).limits).toMatchObject({ maxTokens: 10_000, maxUsd: 5 });
  });

  it('refuses an actor who is not an operator, and a request without a limit or with an unknown field', () => {
    const run = runOf(tasks, { budget: { maxTokens: 10_000 }, governance: { operators: ['alice'] } });
    expect(codeOf(() => run.validateTightenBudget({ maxTokens: 1, actor: 'mallory' }))).toBe('forbidden');
    expect(codeOf(() => run.validateTightenBudget({ actor: 'alice' }))).toBe('invalid_request');
    expect(codeOf(() => run.validateTightenBudget({ maxUSD: 1, actor: 'alice' }))).toBe('invalid_request');
  });

  it('stops the run at once with the budget reason when a new limit is at or below what is used', () => {
    const run = runOf(tasks, { budget: { maxTokens: 10_000 }, teammates: 1 });
    const [first] = run.claim(0);
    run.settle(first.key, first.fencingToken, { kind: 'completed', usage: { inputTokens: 3_000 } }, 5);
    const verdict = run.tightenBudget({ maxTokens: 2_000 }, 10);
    expect(verdict.budget).toMatchObject({ stopped: true, reason: 'max-tokens' });
    expect(run.claim(11)).toEqual([]);
    const statuses = run.tasksPage({}).map((t) => t.status);
    expect(statuses).toEqual(['succeeded', 'skipped', 'skipped']);
  });

  it('stops the attempts in flight into adjudication when the new wall limit has passed', () => {
    const run = runOf(tasks, { budget: { maxWallMs: 3_600_000 } });
    expect(run.claim(0)).toHaveLength(3);
    run.tightenBudget({ maxWallMs: 1_000 }, 2_000);
    expect(run.budgetView(2_000)).toMatchObject({ stopped: true, reason: 'max-wall-ms' });
    expect(run.drainCancellations()).toHaveLength(3);
  });
});
