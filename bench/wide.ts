import { readFileSync } from 'node:fs';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE, abortRunUpdate, statusQuery } from '../src/workflows/messages';
import { sleep, spawnBareWorker, spawnWorker, until, type BenchEnv, type WorkerProcess } from './env';
import { runsOf } from './load';
import { tsToMs } from '@temporalio/common/lib/time';
import { summarize, type Summary } from './stats';

export interface WideResult {
  tasks: number;
  teammates: number;
  taskMs: number;
  workers: number;
  /** tasks x duration / teammates. */
  idealMs: number;
  /** First attempt scheduled -> last attempt completed. */
  wallMs: number;
  status: string;
  runs: number;
  /** WorkflowTaskStarted -> WorkflowTaskCompleted over every workflow task of every run. */
  workflowTaskMs: Summary;
  workflowTaskTimeouts: number;
  /** Attempts re-leased after their TTL, and how many of those the workers never received (see docs/lease-pace.md). */
  lostLeases: number;
  neverReceived: number;
  /** The same fan-out as a bare workflow (bareRun, a trivial sleeping activity, same options) on as many bare workers. */
  bare: { wallMs: number; workflowTaskMs: Summary; failed: number };
  /** The abort of `teammates` running attempts: abortRun sent -> the run closed (every attempt settled). */
  abort: { attempts: number; settleMs: number; workflowTaskMs: Summary; stopActivities: number };
}

/**
 * The 1,000-teammate run: `tasks` `sleep` tasks of `taskMs` each, `teammates` at once, over
 * `workers` worker processes. Then a second run holds `teammates` long attempts, waits until all
 * have announced their stop queue, and is aborted: timed until it closes.
 */
export async function measureWide(
  env: BenchEnv,
  options: { tasks: number; teammates: number; taskMs: number; workers: number },
  log: (line: string) => void,
): Promise<WideResult> {
  const taskQueue = `bench-wide-${Date.now().toString(36)}`;
  const slots = Math.ceil(options.teammates / options.workers) + 16;
  const workers: WorkerProcess[] = [];
  const bareWorkers: WorkerProcess[] = [];
  try {
    for (let w = 0; w < options.workers; w++) {
      // Traced, to tell an attempt that lost its lease from one its worker never received.
      workers.push(
        await spawnWorker(env, taskQueue, `wide-worker-${w}`, env.workerConfig(slots), { BENCH_TRACE_ACTIVITIES: '1' }),
      );
    }
    const plan: TeamPlanInput = {
      name: 'bench-wide',
      teammates: options.teammates,
      tasks: Array.from({ length: options.tasks }, (_, i) => ({
        key: `s${i}`,
        executor: { kind: 'sleep', ms: options.taskMs },
      })),
    };
    const workflowId = `${taskQueue}-run`;
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId, args: [plan] });
    let lastLog = Date.now();
    let done = false;
    const progress = (async () => {
      while (!done) {
        await sleep(1_000);
        if (!done && Date.now() - lastLog >= 10_000) {
          lastLog = Date.now();
          const s = await handle.query(statusQuery).catch(() => null);
          if (s && !done) log(`  wide: ${s.stats.succeeded}/${s.stats.total} succeeded, ${s.stats.running} running`);
        }
      }
    })();
    const result = await handle.result().finally(() => (done = true));
    await progress;
    let first = Infinity;
    let last = 0;
    let runs = 0;
    let timeouts = 0;
    const wft: number[] = [];
    const lost: string[] = [];
    for await (const events of runsOf(env.client, workflowId, handle.firstExecutionRunId)) {
      runs += 1;
      const counted = workflowTasks(events);
      wft.push(...counted.durations);
      timeouts += counted.timeouts;
      const ids = new Map<string, string>();
      for (const e of events) {
        if (e.activityTaskScheduledEventAttributes) {
          first = Math.min(first, tsToMs(e.eventTime));
          ids.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityId ?? '');
        }
        if (e.activityTaskCompletedEventAttributes) last = Math.max(last, tsToMs(e.eventTime));
        const timedOut = e.activityTaskTimedOutEventAttributes;
        if (timedOut) lost.push(ids.get(String(timedOut.scheduledEventId)) ?? '?');
      }
    }
    const traces = workers.map((w) => readFileSync(w.logFile, 'utf8')).join('');
    const neverReceived = lost.filter((id) => !traces.includes(`Activity started ${workflowId} ${id}\n`)).length;
    const wallMs = last - first;
    log(
      `  wide: ${result.status} in ${wallMs} ms over ${runs} run(s), workflow task p95 ${summarize(wft).p95} ms, ` +
        `${lost.length} attempts re-leased after their TTL (${neverReceived} never received by a worker)`,
    );

    // The bare fan-out at the same width on as many truly bare workers (bench/bare-worker.ts, its own bundle, no
    // loader) with the same slots, on a queue of their own: what a hand-written fan-out gets from this server.
    const bareQueue = `${taskQueue}-bare`;
    for (let w = 0; w < options.workers; w++) {
      bareWorkers.push(await spawnBareWorker(env, bareQueue, `wide-bare-${w}`, [], { BARE_SLOTS: String(slots) }));
    }
    const bareId = `${taskQueue}-bare`;
    const bareInput = {
      keys: plan.tasks.map((t) => t.key),
      concurrency: options.teammates,
      ttlMs: 30_000,
      sleepMs: options.taskMs,
    };
    const bareHandle = await env.client.workflow.start('bareRun', {
      taskQueue: bareQueue,
      workflowId: bareId,
      args: [bareInput],
    });
    const bareResult = await bareHandle.result();
    await Promise.all(bareWorkers.map((w) => w.stop()));
    let bareFirst = Infinity;
    let bareLast = 0;
    const bareWft: number[] = [];
    for await (const events of runsOf(env.client, bareId, bareHandle.firstExecutionRunId)) {
      bareWft.push(...workflowTasks(events).durations);
      for (const e of events) {
        if (e.activityTaskScheduledEventAttributes) bareFirst = Math.min(bareFirst, tsToMs(e.eventTime));
        if (e.activityTaskCompletedEventAttributes) bareLast = Math.max(bareLast, tsToMs(e.eventTime));
      }
    }
    const bare = { wallMs: bareLast - bareFirst, workflowTaskMs: summarize(bareWft), failed: bareResult.failed };
    log(
      `  wide bare: ${bare.wallMs} ms, workflow task p95 ${bare.workflowTaskMs.p95} ms, ${bare.failed} activities failed`,
    );

    // The abort at full width.
    const holdPlan: TeamPlanInput = {
      name: 'bench-wide-abort',
      teammates: options.teammates,
      awaitAdjudication: false,
      tasks: Array.from({ length: options.teammates }, (_, i) => ({
        key: `h${i}`,
        executor: { kind: 'sleep', ms: 3_600_000 },
      })),
    };
    const holdId = `${taskQueue}-abort`;
    const hold = await env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId: holdId, args: [holdPlan] });
    await until(
      'every hold attempt to run',
      async () => (await hold.query(statusQuery)).stats.running === options.teammates,
      300_000,
      250,
    );
    // Attempts announce their stop queue 1 s after they start: give the last of them time to.
    await sleep(3_000);
    const sent = Date.now();
    await hold.executeUpdate(abortRunUpdate, {
      args: [{ actor: 'bench', reason: 'bench abort', requireAdjudication: false }],
    });
    await hold.result();
    const settleMs = Date.now() - sent;
    let stopActivities = 0;
    const abortWft: number[] = [];
    for await (const events of runsOf(env.client, holdId, hold.firstExecutionRunId)) {
      abortWft.push(...workflowTasks(events).durations);
      stopActivities += events.filter(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'stopAttempts',
      ).length;
    }
    log(`  wide abort: ${options.teammates} attempts settled in ${settleMs} ms, ${stopActivities} stop activities`);
    return {
      ...options,
      idealMs: (options.tasks * options.taskMs) / options.teammates,
      wallMs,
      status: result.status,
      runs,
      workflowTaskMs: summarize(wft),
      workflowTaskTimeouts: timeouts,
      lostLeases: lost.length,
      neverReceived,
      bare,
      abort: { attempts: options.teammates, settleMs, workflowTaskMs: summarize(abortWft), stopActivities },
    };
  } finally {
    await Promise.all([...workers, ...bareWorkers].map((w) => w.stop()));
  }
}

/** Section (8)'s figures as `--only wide` prints them: each fan-out's time against the ideal and against bare's. */
export function formatWide(wide: WideResult): string {
  const x = (ms: number) => `${(ms / 1000).toFixed(1)} s (${(ms / wide.idealMs).toFixed(2)}x of ideal)`;
  const wft = (s: Summary) => `workflow task p50/p95/max ${s.p50}/${s.p95}/${s.max} ms`;
  return [
    `(8) ${wide.teammates} teammates: ${wide.tasks} x ${wide.taskMs} ms sleep tasks on ${wide.workers} workers, ` +
      `ideal ${(wide.idealMs / 1000).toFixed(1)} s`,
    `  teamRun: ${x(wide.wallMs)}, ${wide.runs} run(s), ${wft(wide.workflowTaskMs)}, ` +
      `${wide.lostLeases} re-leased after TTL (${wide.neverReceived} never received)`,
    `  bare fan-out on bare workers: ${x(wide.bare.wallMs)}, ${wft(wide.bare.workflowTaskMs)}, ` +
      `${wide.bare.failed} failed`,
    `  teamRun / bare: ${(wide.wallMs / wide.bare.wallMs).toFixed(2)}`,
    `  abort of ${wide.abort.attempts}: settled in ${wide.abort.settleMs} ms, ${wide.abort.stopActivities} stop activities`,
  ].join('\n');
}

/** Every workflow task's Started -> Completed, and how many timed out. */
export function workflowTasks(events: ReadonlyArray<object>): { durations: number[]; timeouts: number } {
  const started = new Map<string, number>();
  const durations: number[] = [];
  let timeouts = 0;
  for (const e of events as ReadonlyArray<HistoryEventLike>) {
    const at = tsToMs(e.eventTime as Parameters<typeof tsToMs>[0]);
    if (e.workflowTaskStartedEventAttributes) started.set(String(e.eventId), at);
    const completed = e.workflowTaskCompletedEventAttributes;
    if (completed) {
      const s = started.get(String(completed.startedEventId));
      if (s !== undefined) durations.push(at - s);
    }
    if (e.workflowTaskTimedOutEventAttributes) timeouts += 1;
  }
  return { durations, timeouts };
}

interface HistoryEventLike {
  eventId?: unknown;
  eventTime?: unknown;
  workflowTaskStartedEventAttributes?: unknown;
  workflowTaskCompletedEventAttributes?: { startedEventId?: unknown } | null;
  workflowTaskTimedOutEventAttributes?: unknown;
}
