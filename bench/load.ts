import { readFileSync } from 'node:fs';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE } from '../src/workflows/messages';
import { spawnWorker, type BenchEnv } from './env';
import { summarize, type Summary } from './stats';

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

export interface LoadPass {
  wallMs: number;
  statuses: Record<string, number>;
  /** Attempts the server timed out on their heartbeat (lost leases) on a worker that never died. */
  lostLeases: number;
  /** Of those, the ones the worker never received (the server recorded them started; the worker's trace has no start). */
  neverReceived: number;
  /** The lost ones: which task, how long after it started the server gave up, whether the worker ever ran it. */
  lostDetail: Array<{ workflowId: string; activityId: string; startedToTimeoutMs: number; ranOnWorker: boolean }>;
  workflowTaskTimeouts: { scheduleToStart: number; startToClose: number };
  workflowTaskFailures: number;
  /** WorkflowTaskStarted -> WorkflowTaskCompleted, every workflow task of every run. */
  workflowTaskMs: Summary;
  /** WorkflowTaskScheduled -> WorkflowTaskStarted. */
  workflowTaskWaitMs: Summary;
}

export interface LoadResult {
  stickyScheduleToStartMs?: number;
  runs: number;
  tasksPerRun: number;
  teammates: number;
  taskMs: number;
  passes: LoadPass[];
}

/**
 * The load run: `runs` team runs of `tasksPerRun` short `sleep` tasks each, all started at once
 * on one worker process. Counted from history: lost leases (heartbeat timeouts on a worker that
 * never died), workflow-task timeouts and failures, and how long workflow tasks took.
 */
export async function measureLoad(
  env: BenchEnv,
  options: {
    runs: number;
    tasksPerRun: number;
    teammates: number;
    taskMs: number;
    passes: number;
    stickyScheduleToStartMs?: number;
  },
  log: (line: string) => void,
): Promise<LoadResult> {
  const passes: LoadPass[] = [];
  for (let pass = 0; pass < options.passes; pass++) {
    const taskQueue = `bench-load-${pass}-${Date.now().toString(36)}`;
    // The worker traces every attempt it starts, to tell a lease lost by a running attempt from a task it never received.
    const worker = await spawnWorker(
      env,
      taskQueue,
      `load-worker-${pass}`,
      env.workerConfig(64, options.stickyScheduleToStartMs),
      { BENCH_TRACE_ACTIVITIES: '1' },
    );
    try {
      const plan: TeamPlanInput = {
        name: 'bench-load',
        teammates: options.teammates,
        tasks: Array.from({ length: options.tasksPerRun }, (_, i) => ({
          key: `t${i}`,
          executor: { kind: 'sleep', ms: options.taskMs },
        })),
      };
      const started = Date.now();
      const handles = await Promise.all(
        Array.from({ length: options.runs }, (_, r) =>
          env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId: `${taskQueue}-run-${r}`, args: [plan] }),
        ),
      );
      const results = await Promise.all(handles.map((h) => h.result()));
      const wallMs = Date.now() - started;
      const statuses: Record<string, number> = {};
      for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      const counted = await countHistories(env.client, handles);
      const trace = readFileSync(worker.logFile, 'utf8');
      for (const lost of counted.lostDetail)
        lost.ranOnWorker = trace.includes(`Activity started ${lost.workflowId} ${lost.activityId}\n`);
      const neverReceived = counted.lostDetail.filter((l) => !l.ranOnWorker).length;
      passes.push({ wallMs, statuses, ...counted, neverReceived });
      const last = passes.at(-1)!;
      log(
        `  load pass ${pass + 1}: ${JSON.stringify(statuses)} in ${wallMs} ms, lost leases ${last.lostLeases} (${last.neverReceived} never received by the worker), ` +
          `workflow-task timeouts ${last.workflowTaskTimeouts.scheduleToStart} schedule-to-start / ${last.workflowTaskTimeouts.startToClose} start-to-close, ` +
          `failures ${last.workflowTaskFailures}, workflow task p50/p95 ${last.workflowTaskMs.p50}/${last.workflowTaskMs.p95} ms`,
      );
    } finally {
      await worker.stop();
    }
  }
  return { ...options, passes };
}

async function countHistories(
  client: Client,
  handles: ReadonlyArray<{ workflowId: string; firstExecutionRunId: string }>,
) {
  let lostLeases = 0;
  let failures = 0;
  const lostDetail: LoadPass['lostDetail'] = [];
  const timeouts = { scheduleToStart: 0, startToClose: 0 };
  const taskMs: number[] = [];
  const waitMs: number[] = [];
  for (const h of handles) {
    for await (const events of runsOf(client, h.workflowId, h.firstExecutionRunId)) {
      const scheduled = new Map<string, { id: string; at: number }>();
      const startedAt = new Map<string, number>();
      const wftScheduled = new Map<string, number>();
      const wftStarted = new Map<string, number>();
      for (const e of events) {
        const at = tsToMs(e.eventTime);
        const id = String(e.eventId);
        if (e.activityTaskScheduledEventAttributes)
          scheduled.set(id, { id: e.activityTaskScheduledEventAttributes.activityId ?? '', at });
        if (e.activityTaskStartedEventAttributes)
          startedAt.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), at);
        const timedOut = e.activityTaskTimedOutEventAttributes;
        const timeoutType = String(timedOut?.failure?.timeoutFailureInfo?.timeoutType ?? '');
        // TimeoutType 4 = HEARTBEAT: the server stopped hearing from the attempt.
        if (timedOut && (timeoutType === '4' || timeoutType.includes('HEARTBEAT'))) {
          lostLeases += 1;
          const sid = String(timedOut.scheduledEventId);
          lostDetail.push({
            workflowId: h.workflowId,
            activityId: scheduled.get(sid)?.id ?? '?',
            startedToTimeoutMs: at - (startedAt.get(sid) ?? at),
            ranOnWorker: true,
          });
        }
        if (e.workflowTaskScheduledEventAttributes) wftScheduled.set(id, at);
        if (e.workflowTaskStartedEventAttributes) {
          wftStarted.set(id, at);
          const s = wftScheduled.get(String(e.workflowTaskStartedEventAttributes.scheduledEventId));
          if (s !== undefined) waitMs.push(at - s);
        }
        if (e.workflowTaskCompletedEventAttributes) {
          const s = wftStarted.get(String(e.workflowTaskCompletedEventAttributes.startedEventId));
          if (s !== undefined) taskMs.push(at - s);
        }
        const wftTimeout = e.workflowTaskTimedOutEventAttributes;
        if (wftTimeout) {
          // TimeoutType 2 = SCHEDULE_TO_START (the sticky queue), 1 = START_TO_CLOSE.
          const type = String(wftTimeout.timeoutType);
          if (type === '2' || type.includes('SCHEDULE_TO_START')) timeouts.scheduleToStart += 1;
          else timeouts.startToClose += 1;
        }
        if (e.workflowTaskFailedEventAttributes) failures += 1;
      }
    }
  }
  return {
    lostLeases,
    lostDetail,
    workflowTaskTimeouts: timeouts,
    workflowTaskFailures: failures,
    workflowTaskMs: summarize(taskMs),
    workflowTaskWaitMs: summarize(waitMs),
  };
}

/** The events of every run of a workflow id, following continue-as-new. */
export async function* runsOf(client: Client, workflowId: string, firstRunId: string): AsyncGenerator<HistoryEvent[]> {
  let runId: string | null | undefined = firstRunId;
  while (runId) {
    const history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>> = await client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    yield events;
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
}
