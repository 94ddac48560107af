import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import type { HistoryAttempt } from '../helpers/history';
import { attemptsByTask, completionsByTask, eventsOf, spawnWorkers, startLeaseRun } from '../integration/leases-helpers';
import { crashAndRestart, figure, restartPostgres, workerConfig, type Outage } from './cluster-helpers';

const TASKS = 48;

/**
 * Given a run of 48 one-second tasks on two worker processes, when `fault` hits the cluster
 * mid-run, then the run completes and the history holds exactly one completion per task.
 */
async function survives(fault: string, inject: () => Promise<Outage>): Promise<void> {
  const queue = uniqueQueue(`cluster-${fault}`);
  const workers = await spawnWorkers(queue, [`${fault}-a`, `${fault}-b`], undefined, workerConfig);
  const keys = Array.from({ length: TASKS }, (_, i) => `t${String(i).padStart(2, '0')}`);
  const handle = await startLeaseRun(
    {
      name: `cluster-${fault}`,
      teammates: 8,
      lease: { ttlMs: 5_000 },
      // A lease that expires while the cluster is down costs an attempt, not the task.
      retry: { maxAttempts: 5, backoffMs: 0 },
      tasks: keys.map((key) => ({ key, executor: { kind: 'sleep', ms: 1_000 } })),
    },
    queue,
  );
  await waitFor('a third of the tasks to settle while others run', async () => {
    const { stats } = await handle.query(msg.statusQuery);
    return stats.succeeded >= TASKS / 3 && stats.running > 0;
  }, 120_000);

  const faultAt = Date.now();
  const outage = await inject();
  const result = await handle.result();
  const finishedAt = Date.now();

  expect(result.status).toBe('succeeded');
  expect(result.tasks.map((t) => [t.key, t.status])).toEqual(keys.map((key) => [key, 'succeeded']));
  // Counted from the server's history, not from the run's own counters.
  const completions = await completionsByTask(handle);
  expect(completions).toEqual(Object.fromEntries(keys.map((key) => [key, 1])));
  expect(await eventsOf(handle, 'task:completed')).toHaveLength(TASKS);
  for (const worker of workers) expect(worker.child.exitCode).toBeNull();

  const attempts: HistoryAttempt[] = [...(await attemptsByTask(handle)).values()].flat();
  const startedAfter = attempts.map((a) => a.startedAt).filter((t): t is number => t !== null && t > faultAt).sort((a, b) => a - b);
  const settledAfter = attempts.filter((a) => a.outcome === 'completed' && a.closedAt! > faultAt + outage.downMs).map((a) => a.closedAt!).sort((a, b) => a - b);
  const expired = (await eventsOf(handle, 'lease:expired')).length;
  figure(
    `${fault}: back in ${outage.downMs} ms; first attempt started ${startedAfter[0] - faultAt} ms after the fault, ` +
      `first task settled after it ${settledAfter[0] - faultAt} ms after; run done ${((finishedAt - faultAt) / 1000).toFixed(1)} s after the fault; ` +
      `${TASKS}/${TASKS} tasks completed exactly once in history, ${result.executions} attempts, ${expired} lease(s) expired`,
  );
}

describe('the cluster under fault: nothing lost, nothing settled twice', () => {
  it('kill -9 of the history service mid-run, started again: the run completes, every task settled once', async () => {
    await survives('history-kill', () => crashAndRestart('history'));
  });

  it('kill -9 of the matching service mid-run, started again: the run completes, every task settled once', async () => {
    await survives('matching-kill', () => crashAndRestart('matching'));
  });

  it('PostgreSQL restarted mid-run (immediate stop: crash recovery from the WAL): the run completes, every task settled once', async () => {
    await survives('postgres-restart', () => restartPostgres());
  });
});
