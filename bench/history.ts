import type { Client, WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { tsToMs } from '@temporalio/common/lib/time';

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** One activity attempt, as history records it. */
export interface ActivityRecord {
  /** The task it ran: the `taskKey` of its `runTask` input. */
  taskKey: string;
  scheduledAt: number;
  startedAt: number | null;
  completedAt: number | null;
  /** When the server timed it out (its heartbeats stopped), if it did. */
  timedOutAt: number | null;
}

export interface RunRecord {
  runId: string;
  events: number;
  startedAt: number;
  closedAt: number;
  activities: ActivityRecord[];
}

/** Every run a workflow id went through, following continue-as-new from the first. */
export async function chainOf(client: Client, workflowId: string, firstRunId: string): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  let runId: string | null | undefined = firstRunId;
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    runs.push({
      runId,
      events: events.length,
      startedAt: tsToMs(events[0].eventTime),
      closedAt: tsToMs(events[events.length - 1].eventTime),
      activities: activitiesOf(events),
    });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  return runs;
}

function activitiesOf(events: HistoryEvent[]): ActivityRecord[] {
  const byScheduledId = new Map<string, ActivityRecord>();
  for (const event of events) {
    const at = tsToMs(event.eventTime);
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const payload = scheduled.input?.payloads?.[0]?.data;
      // The bare baseline's trivial activity takes the key itself; runTask's whole input names its task, and a
      // compact one leaves it to the activity id (`<key>#<fencing token>`).
      const input: unknown = payload ? JSON.parse(Buffer.from(payload).toString('utf8')) : '';
      const fromId = (scheduled.activityId ?? '').replace(/#\d+$/, '');
      const taskKey = typeof input === 'string' ? input : ((input as { taskKey?: string }).taskKey ?? fromId);
      byScheduledId.set(String(event.eventId), {
        taskKey,
        scheduledAt: at,
        startedAt: null,
        completedAt: null,
        timedOutAt: null,
      });
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) byScheduledId.get(String(started.scheduledEventId))!.startedAt = at;
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) byScheduledId.get(String(completed.scheduledEventId))!.completedAt = at;
    const timedOut = event.activityTaskTimedOutEventAttributes;
    if (timedOut) byScheduledId.get(String(timedOut.scheduledEventId))!.timedOutAt = at;
  }
  return [...byScheduledId.values()];
}

/**
 * For every task with dependencies: from the moment its last dependency completed to the moment
 * its own attempt was scheduled (the workflow's reaction) and started (a worker picked it up).
 */
export function dependencyLatencies(
  runs: ReadonlyArray<RunRecord>,
  dependsOn: ReadonlyMap<string, ReadonlyArray<string>>,
): { toScheduled: number[]; toStarted: number[] } {
  const byKey = new Map<string, ActivityRecord>();
  for (const run of runs)
    for (const activity of run.activities) if (activity.completedAt !== null) byKey.set(activity.taskKey, activity);
  const toScheduled: number[] = [];
  const toStarted: number[] = [];
  for (const [key, deps] of dependsOn) {
    const activity = byKey.get(key);
    if (!activity || deps.length === 0) continue;
    const ready = Math.max(...deps.map((dep) => byKey.get(dep)?.completedAt ?? Number.NaN));
    if (Number.isNaN(ready)) continue;
    toScheduled.push(activity.scheduledAt - ready);
    if (activity.startedAt !== null) toStarted.push(activity.startedAt - ready);
  }
  return { toScheduled, toStarted };
}

/**
 * For each continue-as-new in a chain: from the last attempt the old run scheduled to the first
 * one the new run scheduled (no attempt starts in between), split at the old run's close.
 */
export function handoverPauses(
  runs: ReadonlyArray<RunRecord>,
): Array<{ drainMs: number; restartMs: number; totalMs: number }> {
  const pauses = [];
  for (let k = 0; k + 1 < runs.length; k++) {
    const lastScheduled = Math.max(...runs[k].activities.map((a) => a.scheduledAt));
    const firstScheduled = Math.min(...runs[k + 1].activities.map((a) => a.scheduledAt));
    if (!Number.isFinite(lastScheduled) || !Number.isFinite(firstScheduled)) continue;
    pauses.push({
      drainMs: runs[k].closedAt - lastScheduled,
      restartMs: firstScheduled - runs[k].closedAt,
      totalMs: firstScheduled - lastScheduled,
    });
  }
  return pauses;
}

/** How long one kind of activity waited and ran, averaged over a set of runs' histories. */
export interface ActivityPhase {
  /** Activities of this type that closed (completed or failed). */
  count: number;
  /** Mean ms from scheduled to the start of its last try (earlier tries and their backoff included). */
  waitMs: number;
  /** Mean ms from the start of its last try to its close. */
  runMs: number;
  /** Mean tries per activity. */
  tries: number;
}

/** Per activity type, how long the activities of `handles`' current runs waited and ran: where an attempt's time goes. */
/** An activity's type, and for a confirmation what it confirms (`confirmAttemptRequest:complete`). */
function activityLabel(s: NonNullable<HistoryEvent['activityTaskScheduledEventAttributes']>): string {
  const type = s.activityType?.name ?? '?';
  if (type !== 'confirmAttemptRequest') return type;
  const payload = s.input?.payloads?.[0];
  const asked = payload ? (defaultPayloadConverter.fromPayload(payload) as { message?: string }) : undefined;
  return `${type}:${asked?.message ?? '?'}`;
}

export async function activityPhases(
  handles: WorkflowHandle[],
  /** Gets, for each run, how long after its start its first `runTask` started (ms). */
  firstAttempts: number[] = [],
): Promise<Record<string, ActivityPhase>> {
  const sums = new Map<string, { count: number; wait: number; run: number; tries: number }>();
  for (const handle of handles) {
    const history = await handle.fetchHistory();
    const runStart = tsToMs(history.events?.[0]?.eventTime);
    let firstAttempt: number | null = null;
    const scheduled = new Map<string, { type: string; at: number }>();
    const started = new Map<string, { at: number; attempt: number }>();
    for (const e of history.events ?? []) {
      const at = tsToMs(e.eventTime);
      const s = e.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(String(e.eventId), { type: activityLabel(s), at });
      const st = e.activityTaskStartedEventAttributes;
      if (st) started.set(String(st.scheduledEventId), { at, attempt: st.attempt ?? 1 });
      if (st && firstAttempt === null && scheduled.get(String(st.scheduledEventId))?.type === 'runTask') {
        firstAttempt = at - runStart;
      }
      const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes;
      const of = closed ? String(closed.scheduledEventId) : null;
      const begun = of === null ? undefined : scheduled.get(of);
      const last = of === null ? undefined : started.get(of);
      if (!begun || !last) continue;
      const sum = sums.get(begun.type) ?? { count: 0, wait: 0, run: 0, tries: 0 };
      sums.set(begun.type, {
        count: sum.count + 1,
        wait: sum.wait + (last.at - begun.at),
        run: sum.run + (at - last.at),
        tries: sum.tries + last.attempt,
      });
    }
    if (firstAttempt !== null) firstAttempts.push(firstAttempt);
  }
  return Object.fromEntries(
    [...sums].map(([type, s]) => [
      type,
      {
        count: s.count,
        waitMs: Math.round(s.wait / s.count),
        runMs: Math.round(s.run / s.count),
        tries: Math.round((s.tries / s.count) * 100) / 100,
      },
    ]),
  );
}
