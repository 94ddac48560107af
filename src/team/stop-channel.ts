/**
 * Owns the direct stop path's data: parsing `attemptRunning` announcements and grouping stops by
 * worker queue. Pure; the workflow sends the stops, and cancellation stays the fallback.
 */
import type { AttemptsRunning } from '../contract';
import { MAX_STOP_QUEUE_CHARS } from '../plan/lease-pace';

export type { AttemptsRunning };

/**
 * The direct stop path's rules. A long attempt announces the task queue its worker polls for
 * stops (`attemptRunning`); when the run stops that attempt (interrupt, abort, wall clock) it
 * sends `stopAttempts` there, one activity per worker queue for all the attempts it stops in
 * one go (an abort of 1,000 attempts on 4 workers is 4 activities, well inside Temporal's 2,000
 * pending activities). The cancellation of the attempt's scope (answered with its next
 * heartbeat) is always sent too: it is the fallback when the stop cannot be delivered.
 */
export interface Announcement {
  key: string;
  fencingToken: number;
  queue: string;
}

/** At most this many attempts in one announcement (a signal's payload stays under ~100 KB). */
export const MAX_ANNOUNCED_PER_SIGNAL = 1_000;

export interface StopRequest {
  queue: string;
  leaseIds: string[];
}

/** At most this many lease ids in one stop activity's input (each at most ~330 chars). */
export const MAX_STOPS_PER_REQUEST = 500;

/**
 * The announcements an `attemptRunning` signal carries; none when it is not one (it comes from
 * outside, so everything is bounded: a malformed entry is dropped, the rest kept).
 */
export function parseAnnouncements(payload: unknown): Announcement[] {
  if (typeof payload !== 'object' || payload === null) return [];
  const { queue, attempts } = payload as Record<string, unknown>;
  if (typeof queue !== 'string' || queue.length === 0 || queue.length > MAX_STOP_QUEUE_CHARS) return [];
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(queue)) return [];
  if (!Array.isArray(attempts) || attempts.length > MAX_ANNOUNCED_PER_SIGNAL) return [];
  const out: Announcement[] = [];
  for (const entry of attempts as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { key, fencingToken } = entry as Record<string, unknown>;
    if (typeof key !== 'string' || key.length === 0 || key.length > 128) continue;
    if (typeof fencingToken !== 'number' || !Number.isSafeInteger(fencingToken) || fencingToken < 1) continue;
    out.push({ key, fencingToken, queue });
  }
  return out;
}

/** Stops grouped by queue (in first-seen order), each lease once, in chunks of `MAX_STOPS_PER_REQUEST`. */
export function stopsByQueue(stops: ReadonlyArray<{ queue: string; leaseId: string }>): StopRequest[] {
  const byQueue = new Map<string, Set<string>>();
  for (const { queue, leaseId } of stops) {
    let set = byQueue.get(queue);
    if (!set) byQueue.set(queue, (set = new Set()));
    set.add(leaseId);
  }
  const requests: StopRequest[] = [];
  for (const [queue, set] of byQueue) {
    const ids = [...set];
    for (let i = 0; i < ids.length; i += MAX_STOPS_PER_REQUEST)
      requests.push({ queue, leaseIds: ids.slice(i, i + MAX_STOPS_PER_REQUEST) });
  }
  return requests;
}
