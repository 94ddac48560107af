import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import { sleep, spawnWorker, until, type BenchEnv } from './env';
import { chainOf } from './history';
import { summarize, type Summary } from './stats';

export interface FailoverTrial {
  /** Worker killed -> the task's next attempt running on the other worker. */
  totalMs: number;
  /** Worker killed -> the server timed the attempt out (heartbeats stopped for a lease TTL). */
  detectMs: number;
  /** Timed out -> next attempt scheduled by the workflow. */
  releaseMs: number;
  /** Scheduled -> the next attempt's command running. */
  startMs: number;
}

export interface FailoverResult {
  ttlMs: number;
  trials: FailoverTrial[];
  total: Summary;
}

/**
 * Benchmark (5): a task runs on worker A (which also holds the run's workflow); worker B joins
 * the queue; A is killed (-9). Timed from the kill to the task's next attempt running on B.
 */
export async function measureFailover(env: BenchEnv, trials: number, ttlMs: number): Promise<FailoverResult> {
  const results: FailoverTrial[] = [];
  for (let trial = 0; trial < trials; trial++) {
    const taskQueue = `bench-failover-${trial}-${Date.now().toString(36)}`;
    const marker = (token: number) => path.join(env.dir, `${taskQueue}-${token}.started`);
    const pidFile = path.join(env.dir, `${taskQueue}.pid`);
    const a = await spawnWorker(env, taskQueue, `failover-a-${trial}`);
    const plan: TeamPlanInput = {
      name: 'bench-failover',
      teammates: 1,
      lease: { ttlMs },
      tasks: [
        {
          key: 'victim',
          executor: {
            kind: 'shell',
            command: `touch ${env.dir}/${taskQueue}-$TEAMRUN_FENCING_TOKEN.started; if [ "$TEAMRUN_FENCING_TOKEN" = 1 ]; then echo $$ > ${pidFile}; exec sleep 600; fi`,
          },
        },
      ],
    };
    const workflowId = `bench-failover-${trial}-${Date.now().toString(36)}`;
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
    await until('the first attempt to run on worker A', () => existsSync(marker(1)) && existsSync(pidFile), 60_000);
    const b = await spawnWorker(env, taskQueue, `failover-b-${trial}`);
    // The kill lands at a random point of the heartbeat cycle.
    await sleep(500 + Math.random() * 1_000);
    const killedAt = Date.now();
    a.child.kill('SIGKILL');
    await until('the next attempt to run on worker B', () => existsSync(marker(2)), 120_000, 5);
    const totalMs = Date.now() - killedAt;
    await handle.result();
    killGroup(Number(readFileSync(pidFile, 'utf8')));
    const [run] = await chainOf(env.client, workflowId, handle.firstExecutionRunId);
    const [first, second] = run.activities;
    results.push({
      totalMs,
      detectMs: first.timedOutAt! - killedAt,
      releaseMs: second.scheduledAt - first.timedOutAt!,
      startMs: killedAt + totalMs - second.scheduledAt,
    });
    await b.stop();
  }
  return { ttlMs, trials: results, total: summarize(results.map((r) => r.totalMs)) };
}

/** The killed worker's command outlives it (its own process group); clean it up. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
