import { describe, expect, it } from 'vitest';
import type { Usage } from '../../src/plan/schema';
import { budgetQuery, eventsQuery, statusQuery } from '../../src/workflows/messages';
import { startRun, testConfig, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

/** A shell task that reports `usage` the way an agent CLI would, then exits with `exitCode`. */
function reporting(usage: Usage, options: { sleepS?: number; exitCode?: number } = {}) {
  const steps = [
    options.sleepS ? `sleep ${options.sleepS}` : null,
    `echo '::teamrun-usage::${JSON.stringify(usage)}'`,
    options.exitCode ? `exit ${options.exitCode}` : null,
  ];
  return { kind: 'shell', command: steps.filter(Boolean).join('; ') };
}

const tasks = (n: number, executor: { kind: string; command: string }, extra: object = {}) =>
  Array.from({ length: n }, (_, i) => ({ key: `t${i + 1}`, executor, ...extra }));

/** $10 per million input tokens and $20 per million output tokens: 1,000 in + 500 out = $0.02. */
const prices = { 'tiny-model': { inputPerMTok: 10, outputPerMTok: 20 } };

describe.concurrent('token and dollar budgets on a real dev server', () => {
  it('maxTokens 2500 at 1,000 tokens a task: the third stopped at its overrun and charged truthfully, then max-tokens', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'max-tokens',
        teammates: 1,
        awaitAdjudication: false,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        budget: { maxTokens: 2_500 },
        tasks: tasks(5, reporting({ inputTokens: 600, outputTokens: 400, model: 'm' })),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tokens', executions: 3 });
    expect(result.budget.used.tokens).toBe(3_000);
    expect(result.budget.reserved.tokens).toBe(0);
    // The third reserved the 500 left and reported 1,000: refused the rest, it is a human's to judge.
    expect(result.tasks.map((t) => t.status)).toEqual(['succeeded', 'succeeded', 'adjudication', 'skipped', 'skipped']);
    expect(result.tasks[2].lastError).toMatch(/^TEAM_TASK_BUDGET_EXCEEDED: /);
  });

  it('16 teammates, maxTokens 160, no estimates: reservations never sum past 160 and the run never overspends', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'fair-share',
        teammates: 16,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_500 },
        budget: { maxTokens: 160 },
        tasks: tasks(20, reporting({ inputTokens: 6, outputTokens: 4, model: 'm' }, { sleepS: 1 })),
      },
      worker.taskQueue,
    );
    const views: Array<{ used: number; reserved: number }> = [];
    await waitFor(
      'the run to end',
      async () => {
        const [status, budget] = await Promise.all([handle.query(statusQuery), handle.query(budgetQuery)]);
        views.push({ used: budget.used.tokens, reserved: budget.reserved.tokens });
        return status.state !== 'running';
      },
      60_000,
      50,
    );
    for (const view of views) expect(view.used + view.reserved).toBeLessThanOrEqual(160);

    const result = await handle.result();
    // Every teammate held a reservation at once (a poll can miss that one-second window on a busy machine).
    expect(result.maxConcurrent).toBe(16);
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-tokens', executions: 16 });
    expect(result.budget.used.tokens).toBe(160);
    expect(result.stats).toMatchObject({ succeeded: 16, skipped: 4 });
    const { events } = await handle.query(eventsQuery, { limit: 1_000 });
    const reservations = events.filter((e) => e.type === 'task:claimed').map((e) => e.reservation);
    expect(reservations).toEqual(new Array(16).fill({ tokens: 10, usd: 0 }));
  });

  it('charges the usage that comes with a failure', async ({ onTestFinished }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'failure-usage',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        retry: { maxAttempts: 2, backoffMs: 10 },
        budget: { maxTokens: 10_000 },
        tasks: [
          { key: 'flaky', executor: reporting({ inputTokens: 200, outputTokens: 50, model: 'm' }, { exitCode: 3 }) },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      usage: { inputTokens: 400, outputTokens: 100 },
    });
    expect(result.budget.used.tokens).toBe(500);
  });

  it('maxUsd with a priced model stops at the limit, the dollars taken from the price table', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig({}, prices) }, onTestFinished);
    const handle = await startRun(
      {
        name: 'max-usd',
        teammates: 1,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        budget: { maxUsd: 0.05 },
        tasks: tasks(4, reporting({ inputTokens: 1_000, outputTokens: 500, model: 'tiny-model' }), {
          estimate: { usd: 0.02 },
        }),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'max-usd', executions: 2 });
    expect(result.budget.used.usd).toBe(0.04);
    expect(result.budget.remaining.usd).toBe(0.01);
    expect(result.tasks[0].usage.costUsd).toBe(0.02);
  });

  it('usage for a model with no price while maxUsd is set fails the task and stops the run (unpriced-usage)', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig({}, prices) }, onTestFinished);
    const handle = await startRun(
      {
        name: 'unpriced',
        teammates: 1,
        lease: { ttlMs: 15_000, heartbeatEveryMs: 1_000 },
        retry: { maxAttempts: 3, backoffMs: 10 },
        budget: { maxUsd: 5 },
        tasks: tasks(3, reporting({ inputTokens: 100, outputTokens: 10, model: 'mystery-model' })),
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'unpriced-usage', executions: 1 });
    expect(result.tasks.map((t) => [t.key, t.status, t.attempts])).toEqual([
      ['t1', 'failed', 1],
      ['t2', 'skipped', 0],
      ['t3', 'skipped', 0],
    ]);
    expect(result.tasks[0].lastError).toContain('"mystery-model" has no price');
    expect(result.budget.used.tokens).toBe(110);
  });
});
