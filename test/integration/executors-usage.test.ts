import { describe, expect, it } from 'vitest';
import { startRun, testConfig } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';

/** A shell task that prints several usage lines, as an agent calling more than one model would. */
const printing = (...records: object[]) => ({
  kind: 'shell',
  command: records.map((r) => `echo '::teamrun-usage::${JSON.stringify(r)}'`).join('; '),
});

/** $10 per million tokens. */
const prices = { 'ten-dollar-model': { inputPerMTok: 10, outputPerMTok: 10 } };

describe.concurrent('usage priced per record, end to end (maxUsd 1)', () => {
  it('1M tokens of an unknown model beside a cheap costUsd line stop the run with unpriced-usage', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig({}, prices) }, onTestFinished);
    const handle = await startRun(
      {
        name: 'unpriced-record',
        teammates: 1,
        budget: { maxUsd: 1 },
        tasks: [
          {
            key: 'mixed',
            executor: printing({ inputTokens: 1_000_000, model: 'unknown-model' }, { inputTokens: 1, costUsd: 0.0001 }),
          },
          { key: 'next', dependsOn: ['mixed'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'unpriced-usage', executions: 1 });
    expect(result.tasks[0]).toMatchObject({ status: 'failed', usage: { inputTokens: 1_000_001, costUsd: 0.0001 } });
    expect(result.tasks[0].lastError).toContain('unknown-model');
    expect(result.tasks[1].status).toBe('skipped');
  });

  it('1M tokens of a $10/M model past maxUsd 1: stopped at that line, charged $10, adjudicated as over budget', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig({}, prices) }, onTestFinished);
    const handle = await startRun(
      {
        name: 'priced-records',
        teammates: 1,
        awaitAdjudication: false,
        budget: { maxUsd: 1 },
        tasks: [
          {
            key: 'costly',
            executor: printing(
              { inputTokens: 1_000_000, model: 'ten-dollar-model' },
              { inputTokens: 1, costUsd: 0.0001 },
            ),
          },
          { key: 'next', dependsOn: ['costly'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    // The line past the grant is refused more budget: the attempt stops there, and the cheap line after it is not read.
    expect(result).toMatchObject({ status: 'unresolved', executions: 1 });
    expect(result.budget.used.usd).toBe(10);
    expect(result.tasks[0]).toMatchObject({ status: 'adjudication', usage: { inputTokens: 1_000_000, costUsd: 10 } });
    expect(result.tasks[0].lastError).toMatch(/^TEAM_TASK_BUDGET_EXCEEDED: .*\(max-usd\)/);
    expect(result.tasks[1].status).toBe('skipped');
  });
});
