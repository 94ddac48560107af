import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPlan } from '../../src/operator/plan-file';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import { attemptsByTask, completionsByTask, root, spawnWorkers, startLeaseRun } from '../integration/leases-helpers';
import { figure, listed, temporal, workerConfig } from './cluster-helpers';

describe('teamrun on the cluster: PostgreSQL persistence and SQL visibility', () => {
  it('runs the demo plan: the failing build is retried, the run succeeds', async () => {
    const queue = uniqueQueue('cluster-demo');
    await spawnWorkers(queue, ['demo-worker'], undefined, workerConfig);
    const { input } = readPlan(path.join(root, 'examples', 'demo.yaml'));
    const handle = await startLeaseRun(input, queue);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.find((t) => t.key === 'build')).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(Object.values(await completionsByTask(handle)).every((n) => n === 1)).toBe(true);
    await waitFor(
      'the demo run to be listed as Succeeded',
      async () =>
        (await listed(`WorkflowId="${handle.workflowId}" AND TeamRunStatus="Succeeded" AND TeamName="${input.name}"`))
          .length === 1,
      30_000,
      500,
    );
  });

  it('runs 500 tasks on two worker processes; list filters, counts and queries answer from SQL visibility', async () => {
    const queue = uniqueQueue('cluster-500');
    const name = uniqueQueue('cluster-500');
    await spawnWorkers(queue, ['wide-a', 'wide-b'], undefined, workerConfig);
    // 500 tasks in 10 layers of 50, each depending on one task of the layer before.
    const keys = Array.from({ length: 500 }, (_, i) => `t${String(i).padStart(3, '0')}`);
    const began = Date.now();
    const handle = await startLeaseRun(
      {
        name,
        teammates: 32,
        lease: { ttlMs: 10_000 },
        tasks: keys.map((key, i) => ({
          key,
          ...(i >= 50 ? { dependsOn: [keys[i - 50]] } : {}),
          executor: { kind: 'sleep', ms: 20 },
        })),
      },
      queue,
    );
    // While it runs: listed as Running, with its pending adjudications at 0.
    await waitFor(
      'the run to be listed as Running',
      async () =>
        (await listed(`TeamName="${name}" AND TeamRunStatus="Running" AND TeamRunPendingAdjudications=0`)).length === 1,
      60_000,
      500,
    );
    const midway = await handle.query(msg.statusQuery);
    expect(midway.state).toBe('running');

    const result = await handle.result();
    const seconds = (Date.now() - began) / 1000;
    expect(result.status).toBe('succeeded');
    // The result holds the views that fit in 64 KiB and counts the rest; its stats count all 500.
    expect(result.stats).toMatchObject({ total: 500, succeeded: 500 });
    expect(result.tasks.length + result.omittedTasks).toBe(500);
    expect(result.tasks.every((t) => t.status === 'succeeded')).toBe(true);
    const completions = await completionsByTask(handle);
    expect(Object.keys(completions)).toHaveLength(500);
    expect(Object.values(completions).every((n) => n === 1)).toBe(true);
    // The run's own count agrees (its event log is a bounded ring now, so it no longer holds all 500 completions).
    expect(result.executions).toBe(500);
    // Both worker processes took attempts (who started each one, as the history says).
    const startedBy = new Set([...(await attemptsByTask(handle)).values()].flat().map((a) => a.startedBy));
    expect(startedBy).toEqual(new Set(['wide-a', 'wide-b']));

    // Queries on the closed run.
    expect((await handle.query(msg.tasksQuery, { status: 'succeeded' })).length).toBe(500);
    expect((await handle.query(msg.statusQuery)).stats.succeeded).toBe(500);
    expect((await handle.query(msg.budgetQuery)).stopped).toBe(false);

    // List filters on each of teamrun's search attributes, and a count.
    const query = `TeamName="${name}" AND TeamRunStatus="Succeeded" AND TeamRunPendingAdjudications=0 AND TeamRunBudgetStopped=false`;
    await waitFor('the run to be listed as Succeeded', async () => (await listed(query)).length === 1, 60_000, 500);
    expect(await listed(query)).toEqual([handle.workflowId]);
    expect(await listed(`TeamName="${name}" AND TeamRunStatus="Running"`)).toEqual([]);
    expect(await listed(`TeamName="${name}" AND TeamRunBudgetStopped=true`)).toEqual([]);
    expect(
      JSON.parse(await temporal('workflow', 'count', '--query', `TeamName="${name}"`, '--output', 'json')),
    ).toMatchObject({ count: '1' });
    figure(
      `500 tasks (10 layers of 50, 32 teammates, 2 worker processes): succeeded in ${seconds.toFixed(1)} s, ${(500 / seconds).toFixed(1)} tasks/s, every task completed once in history`,
    );
  });
});
