import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';

/** One `runTask` activity as the workflow history records it. */
export interface HistoryAttempt {
  activityId: string;
  activityType: string;
  scheduledAt: number;
  /** When a worker picked it up (the server writes the event when the attempt closes, with the start time). */
  startedAt: number | null;
  /** Identity of the worker that picked it up. */
  startedBy: string | null;
  closedAt: number | null;
  outcome: 'completed' | 'failed' | 'timed-out' | 'cancelled' | 'open';
  failure: { message: string; type: string | null; nonRetryable: boolean } | null;
  /** A timed-out attempt's last heartbeat details, as the server kept them (JSON payloads only). */
  lastHeartbeat?: unknown;
}

/**
 * Every attempt of a workflow's history (each activity but teamrun's own `stopAttempts` and
 * `handOverAttempts`, sent to a worker's stop queue), in the order they were scheduled. An
 * `adoptAttempt` is listed: it is an attempt a previous run carried over, under the same id.
 */
export async function historyAttempts(handle: WorkflowHandle): Promise<HistoryAttempt[]> {
  return (await historyActivities(handle)).filter(
    (a) => a.activityType !== 'stopAttempts' && a.activityType !== 'handOverAttempts',
  );
}

/** Every activity of a workflow's history, in the order they were scheduled. */
export async function historyActivities(handle: WorkflowHandle): Promise<HistoryAttempt[]> {
  const history = await handle.fetchHistory();
  const byScheduledId = new Map<string, HistoryAttempt>();
  for (const event of history.events ?? []) {
    const at = tsToMs(event.eventTime);
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      byScheduledId.set(String(event.eventId), {
        activityId: scheduled.activityId ?? '',
        activityType: scheduled.activityType?.name ?? '',
        scheduledAt: at,
        startedAt: null,
        startedBy: null,
        closedAt: null,
        outcome: 'open',
        failure: null,
      });
      continue;
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const attempt = byScheduledId.get(String(started.scheduledEventId))!;
      attempt.startedAt = at;
      attempt.startedBy = started.identity ?? null;
      continue;
    }
    const closes = [
      ['completed', event.activityTaskCompletedEventAttributes],
      ['failed', event.activityTaskFailedEventAttributes],
      ['timed-out', event.activityTaskTimedOutEventAttributes],
      ['cancelled', event.activityTaskCanceledEventAttributes],
    ] as const;
    for (const [outcome, attrs] of closes) {
      if (!attrs) continue;
      const attempt = byScheduledId.get(String(attrs.scheduledEventId))!;
      attempt.closedAt = at;
      attempt.outcome = outcome;
      const failure = 'failure' in attrs ? attrs.failure : undefined;
      if (failure) {
        attempt.failure = {
          message: failure.message ?? '',
          type: failure.applicationFailureInfo?.type ?? null,
          nonRetryable: failure.applicationFailureInfo?.nonRetryable === true,
        };
        const beat = failure.timeoutFailureInfo?.lastHeartbeatDetails?.payloads?.[0]?.data;
        if (beat) attempt.lastHeartbeat = jsonOrNull(beat);
      }
    }
  }
  return [...byScheduledId.values()];
}

/** The most attempts that were running at the same moment, from their start and close times. */
export function maxOverlap(attempts: ReadonlyArray<Pick<HistoryAttempt, 'startedAt' | 'closedAt'>>): number {
  const edges: Array<[number, number]> = [];
  for (const a of attempts) {
    if (a.startedAt === null || a.closedAt === null) throw new Error('maxOverlap needs closed attempts');
    edges.push([a.startedAt, +1], [a.closedAt, -1]);
  }
  // At the same millisecond a close comes before a start: the slot was free by then.
  edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let running = 0;
  let most = 0;
  for (const [, delta] of edges) {
    running += delta;
    most = Math.max(most, running);
  }
  return most;
}

/** Whether two closed attempts ran at the same time for any moment. */
export function overlapped(a: HistoryAttempt, b: HistoryAttempt): boolean {
  return a.startedAt! < b.closedAt! && b.startedAt! < a.closedAt!;
}

function jsonOrNull(data: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * Workflow-task failures the server records when a completion meets events that arrived meanwhile (UNHANDLED_COMMAND,
 * FORCE_CLOSE_COMMAND): Temporal's protocol for "see the new events first", replayed at once, not a failure of
 * workflow code. A run that takes a burst of signals may see one at any load.
 */
export const SERVER_REFUSED_COMPLETION = new Set([1, 17]);

/** The workflow-task failures of a fetched history that workflow code caused (each as `cause: message`). */
export function workflowCodeFailures(history: Awaited<ReturnType<WorkflowHandle['fetchHistory']>>): string[] {
  const failures: string[] = [];
  for (const event of history.events ?? []) {
    const failed = event.workflowTaskFailedEventAttributes;
    if (failed && !SERVER_REFUSED_COMPLETION.has(Number(failed.cause)))
      failures.push(`${String(failed.cause)}: ${failed.failure?.message ?? '(no message)'}`);
  }
  return failures;
}
