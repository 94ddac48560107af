import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import type { HistoryAttempt } from '../helpers/history';
import {
  attemptsByTask,
  completionsByTask,
  eventsOf,
  spawnWorkers,
  startLeaseRun,
} from '../integration/leases-helpers';
import { freePort } from '../../src/devserver/server';
import {
  clusterState,
  crashAndRestart,
  figure,
  metricSum,
  restartPostgres,
  spawnWorkerWithMetrics,
  workerConfig,
  type Outage,
} from './cluster-helpers';

const TASKS = 48;

/**
 * Given a run of 48 one-second tasks on two worker processes, when `fault` hits the cluster
 * mid-run, then the run completes and the history holds exactly one completion per task.
 */
async function survives(
  fault: string,
  inject: () => Promise<Outage>,
  metrics?: string[],
): Promise<{ expired: number }> {
  const queue = uniqueQueue(`cluster-${fault}`);
  const identities = [`${fault}-a`, `${fault}-b`];
  // Workers that serve their SDK metrics when the test reads them.
  const workers = metrics
    ? await Promise.all(identities.map((identity, i) => spawnWorkerWithMetrics(queue, identity, metrics[i])))
    : await spawnWorkers(queue, identities, undefined, workerConfig);
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
  await waitFor(
    'a third of the tasks to settle while others run',
    async () => {
      const { stats } = await handle.query(msg.statusQuery);
      return stats.succeeded >= TASKS / 3 && stats.running > 0;
    },
    120_000,
  );

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

  // Recovery, from the history: the first attempt a worker started once the fault was over.
  const backAt = faultAt + outage.downMs;
  const attempts: HistoryAttempt[] = [...(await attemptsByTask(handle)).values()].flat();
  const firstStart = Math.min(...attempts.map((a) => a.startedAt).filter((t): t is number => t !== null && t > backAt));
  const expired = (await eventsOf(handle, 'lease:expired')).length;
  figure(
    `${fault}: down ${outage.downMs} ms (fault until the process listens again); next attempt started ${firstStart - backAt} ms after that; ` +
      `run done ${((finishedAt - faultAt) / 1000).toFixed(1)} s after the fault; ` +
      `${TASKS}/${TASKS} tasks completed exactly once in history, ${result.executions} attempts, ${expired} lease(s) expired`,
  );
  return { expired };
}

describe('the cluster under fault: nothing lost, nothing settled twice', () => {
  it('kill -9 of the history service mid-run, started again: the run completes, every task settled once', async () => {
    await survives('history-kill', () => crashAndRestart('history'));
  });

  it('kill -9 of the history service, down 8 s (past the 5 s lease): leases expire and are re-leased, every task settled once; the metrics show it', async () => {
    const metrics = [`127.0.0.1:${await freePort()}`, `127.0.0.1:${await freePort()}`];
    const historyMetrics = `http://127.0.0.1:${clusterState().ports.metrics.history}/metrics`;
    const { expired } = await survives('history-down-8s', () => crashAndRestart('history', 8_000), metrics);
    // The attempts in flight outlived their lease while no history service recorded their heartbeats.
    expect(expired).toBeGreaterThan(0);
    // What docs/deploy.md tells an operator to watch: the worker's failed calls, the server's heartbeat timeouts.
    const sum = async (labels: string) => {
      let total = 0;
      for (const address of metrics)
        total += await metricSum(`http://${address}/metrics`, 'temporal_request_failure', labels);
      return total;
    };
    // Attempts shorter than the heartbeat pace send no heartbeat (docs/lease-pace.md), so what fails is
    // whatever activity-task call the workers made during the outage: heartbeats or completions.
    const heartbeatFailures = await sum('operation="RecordActivityTaskHeartbeat"');
    const completionFailures = await sum('operation="RespondActivityTaskCompleted"');
    expect(heartbeatFailures + completionFailures).toBeGreaterThan(0);
    // Completions the server refused: attempts that finished after their lease was gone.
    const refusedCompletions = await sum('status_code="NOT_FOUND"');
    // The restarted history process counts from zero: every heartbeat timeout it has seen is this outage's.
    const timeouts = await metricSum(historyMetrics, 'heartbeat_timeout');
    expect(timeouts).toBe(expired);
    figure(
      `history-down-8s metrics: workers' temporal_request_failure for heartbeats ${heartbeatFailures}, for completions ${completionFailures}, completions refused (NOT_FOUND) ${refusedCompletions}; history heartbeat_timeout ${timeouts}`,
    );
  });

  it('kill -9 of the matching service mid-run, started again: the run completes, every task settled once', async () => {
    await survives('matching-kill', () => crashAndRestart('matching'));
  });

  it('PostgreSQL restarted mid-run (immediate stop: crash recovery from the WAL): the run completes, every task settled once', async () => {
    await survives('postgres-restart', () => restartPostgres());
  });
});
