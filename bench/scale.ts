import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TeamPlanInput } from '../src/plan/schema';
import {
  WORKFLOW_TYPE,
  activeClaimsQuery,
  adjudicateUpdate,
  interruptTaskUpdate,
  statusQuery,
  tasksQuery,
} from '../src/workflows/messages';
import { sleep, spawnWorker, until, type BenchEnv } from './env';
import { MIXED_WIDTHS, layeredTasks } from './graphs';
import { chainOf, handoverPauses } from './history';
import { summarize, type Summary } from './stats';

export interface ScaleResult {
  tasks: number;
  teammates: number;
  continueAsNewAfterEvents: number | null;
  /** First run started -> last task completed. */
  wallMs: number;
  tasksPerSecond: number;
  runs: number;
  maxRunEvents: number;
  totalEvents: number;
  /** Per continue-as-new: last attempt scheduled by the old run -> first by the new (drain + restart). */
  handover: { drain: Summary; restart: Summary; total: Summary };
  workerPeakRssMiB: number;
  resultBytes: number;
  resultOmittedTasks: number;
  status: string;
  /** Client-side round trips while the run works, and at full size once every task has settled. */
  queries: {
    whileRunning: { status: Summary; tasks100: Summary };
    atFullSize: { status: Summary; tasks100: Summary; tasks1000: Summary };
    closedRun: { status: Summary };
  };
}

/**
 * Benchmark (6): a graph of `n` tasks in layers of mixed widths, `teammates` at once, on a
 * worker of its own. One extra task is interrupted at the start, so the run ends waiting for
 * its adjudication: that is when the queries are timed at full size, before it is accepted.
 */
export async function measureScale(
  env: BenchEnv,
  n: number,
  teammates: number,
  log: (line: string) => void,
  continueAsNewAfterEvents?: number,
): Promise<ScaleResult> {
  const taskQueue = `bench-scale-${Date.now().toString(36)}`;
  const worker = await spawnWorker(env, taskQueue, 'scale-worker');
  const pidFile = path.join(env.dir, 'scale-hold.pid');
  const plan: TeamPlanInput = {
    name: 'bench-scale',
    teammates,
    ...(continueAsNewAfterEvents === undefined ? {} : { continueAsNewAfterEvents }),
    tasks: [
      { key: 'hold', priority: 'high', executor: { kind: 'shell', command: `echo $$ > ${pidFile}; exec sleep 3600` } },
      ...layeredTasks(n - 1, MIXED_WIDTHS),
    ],
  };
  const workflowId = `bench-scale-${Date.now().toString(36)}`;
  const handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
  const hold = await until('hold to run', async () => {
    const claim = (await handle.query(activeClaimsQuery)).find((c) => c.key === 'hold');
    return claim && existsSync(pidFile) ? claim : null;
  });
  await handle.executeUpdate(interruptTaskUpdate, {
    args: [{ key: 'hold', fencingToken: hold.fencingToken, actor: 'bench' }],
  });

  const timed = async <T>(query: () => Promise<T>) => {
    const started = performance.now();
    const value = await query();
    return { ms: performance.now() - started, value };
  };
  const running = { status: [] as number[], tasks100: [] as number[] };
  let lastLog = 0;
  for (;;) {
    const status = await timed(() => handle.query(statusQuery));
    running.status.push(status.ms);
    if (status.value.state !== 'running') break;
    running.tasks100.push((await timed(() => handle.query(tasksQuery, { offset: n / 2, limit: 100 }))).ms);
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      const { stats } = status.value;
      log(`  scale: ${stats.succeeded}/${stats.total} succeeded, ${stats.running} running`);
    }
    await sleep(250);
  }
  const full = { status: [] as number[], tasks100: [] as number[], tasks1000: [] as number[] };
  for (let i = 0; i < 50; i++) {
    full.status.push((await timed(() => handle.query(statusQuery))).ms);
    full.tasks100.push((await timed(() => handle.query(tasksQuery, { offset: n / 2, limit: 100 }))).ms);
    full.tasks1000.push((await timed(() => handle.query(tasksQuery, { limit: 1000 }))).ms);
  }
  await handle.executeUpdate(adjudicateUpdate, {
    args: [{ key: 'hold', decision: 'accept', decisionId: 'bench-accept', actor: 'bench' }],
  });
  const result = await handle.result();
  const closed: number[] = [];
  for (let i = 0; i < 3; i++) closed.push((await timed(() => handle.query(statusQuery))).ms);
  const workerPeakRssMiB = worker.peakRssMiB();
  await worker.stop();

  const runs = await chainOf(env.client, workflowId, handle.firstExecutionRunId);
  const lastCompletion = Math.max(...runs.flatMap((run) => run.activities.map((a) => a.completedAt ?? 0)));
  const wallMs = lastCompletion - runs[0].startedAt;
  const pauses = handoverPauses(runs);
  return {
    tasks: n,
    teammates,
    continueAsNewAfterEvents: continueAsNewAfterEvents ?? null,
    wallMs,
    tasksPerSecond: (n * 1000) / wallMs,
    runs: runs.length,
    maxRunEvents: Math.max(...runs.map((r) => r.events)),
    totalEvents: runs.reduce((sum, r) => sum + r.events, 0),
    handover: {
      drain: summarize(pauses.map((h) => h.drainMs)),
      restart: summarize(pauses.map((h) => h.restartMs)),
      total: summarize(pauses.map((h) => h.totalMs)),
    },
    workerPeakRssMiB,
    resultBytes: JSON.stringify(result).length,
    resultOmittedTasks: result.omittedTasks,
    status: result.status,
    queries: {
      whileRunning: { status: summarize(running.status), tasks100: summarize(running.tasks100) },
      atFullSize: {
        status: summarize(full.status),
        tasks100: summarize(full.tasks100),
        tasks1000: summarize(full.tasks1000),
      },
      closedRun: { status: summarize(closed) },
    },
  };
}
