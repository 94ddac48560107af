import { describe, expect, it } from 'vitest';
import { startRun, temporalAddress, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

const cli = (...args: string[]) => teamrun([...args, '--address', temporalAddress()], {}, 60_000);

describe('a task waiting for budget says why', () => {
  it('`teamrun tasks` and `teamrun status` name what it needs, what is free and which running task holds the rest', async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'budget-wait',
        teammates: 2,
        budget: { maxTokens: 1_500 },
        tasks: [
          { key: 'long', estimate: { tokens: 1_000 }, executor: { kind: 'sleep', ms: 600_000 } },
          { key: 'next', estimate: { tokens: 1_000 }, executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    onTestFinished(async () => {
      await handle.terminate('test over').catch(() => undefined);
    });
    const id = handle.workflowId;
    const why = 'waiting for budget: needs 1,000 tokens, 500 tokens free, 1,000 tokens reserved by long (1,000 tokens)';
    await waitFor('next to wait for budget', async () => (await handle.tasks()).some((t) => t.waiting === why));

    const tasks = await cli('tasks', id);
    expect(tasks.code, tasks.stderr).toBe(0);
    expect(tasks.stdout).toMatch(/\n\s*long\s+leased\s+1\s+1\s+teammate-\d\s/);
    expect(tasks.stdout).toMatch(new RegExp(`\\n\\s*next\\s+ready\\s+0\\s+0\\s+-\\s+${why.replace(/[()$]/g, '\\$&')}`));

    const status = await cli('status', id);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`waiting  next: ${why}`);
    const json = JSON.parse((await cli('status', id, '--json')).stdout);
    expect(json.waitingForBudget).toEqual([{ key: 'next', waiting: why }]);
  });
});
