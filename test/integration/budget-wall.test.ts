import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../src/activities/executors';
import { eventsQuery, statusQuery } from '../../src/workflows/messages';
import { startRun, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

describe.concurrent('the wall-clock budget on a real dev server', () => {
  it('maxWallMs fires while a sleep attempt runs: the attempt is cancelled into adjudication, the run budget_stopped', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'wall-clock',
        teammates: 2,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        awaitAdjudication: false,
        budget: { maxWallMs: 1_500 },
        tasks: [
          { key: 'long', executor: { kind: 'sleep', ms: 60_000 } },
          { key: 'after', dependsOn: ['long'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-wall-ms', executions: 1 });
    expect(result.tasks.map((t) => [t.key, t.status])).toEqual([
      ['long', 'adjudication'],
      ['after', 'skipped'],
    ]);
    expect(result.adjudications).toMatchObject([
      { key: 'long', code: 'TEAM_WALL_BUDGET_EXHAUSTED', fencingToken: 1, decision: null },
    ]);
    // Cancelled, not waited out: the run closed long before the 60 s sleep would have ended.
    expect(result.tasks[0].settledAt! - result.tasks[0].startedAt!).toBeLessThan(15_000);
    expect(result.budget.used.wallMs).toBeGreaterThanOrEqual(1_500);
    const { events } = await handle.query(eventsQuery, { limit: 1_000 });
    expect(events.filter((e) => e.type === 'run:budget-exhausted')).toMatchObject([{ reason: 'max-wall-ms' }]);
  });

  it('an executor that ignores cancellation and returns just after the deadline is not counted a success', async ({
    onTestFinished,
  }) => {
    let deadline: number | null = null;
    let sawAbortAtReturn: boolean | null = null;
    // Returns 100 ms after the run's deadline, whether or not it was cancelled meanwhile.
    const late: Executor = async (_spec, ctx) => {
      while (deadline === null || Date.now() < deadline + 100) await delay(20);
      sawAbortAtReturn = ctx.signal.aborted;
      return { output: { late: true }, usage: { inputTokens: 5, outputTokens: 5 } };
    };
    const worker = await workerForTest({ executors: { late } }, onTestFinished);
    const maxWallMs = 2_000;
    const handle = await startRun(
      {
        name: 'late-result',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_500 },
        awaitAdjudication: false,
        budget: { maxWallMs },
        tasks: [{ key: 'stubborn', executor: { kind: 'late' } }],
      },
      worker.taskQueue,
    );
    const { startedAt } = await waitFor('the run to start', () => handle.query(statusQuery));
    deadline = startedAt + maxWallMs;
    const result = await handle.result();
    expect(sawAbortAtReturn).not.toBeNull();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-wall-ms' });
    expect(result.stats.succeeded).toBe(0);
    expect(result.tasks[0].status).toBe('adjudication');
    // What it returned is kept as evidence for a human, and its usage is charged.
    expect(result.adjudications).toMatchObject([
      { key: 'stubborn', code: 'TEAM_WALL_BUDGET_EXHAUSTED', result: { late: true } },
    ]);
    expect(result.budget.used.tokens).toBe(10);
  });
});
