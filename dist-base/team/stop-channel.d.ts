/**
 * Owns the direct stop path's data: parsing `attemptRunning` announcements and grouping stops by
 * worker queue. Pure; the workflow sends the stops, and cancellation stays the fallback.
 */
import type { AttemptsRunning } from '../contract';
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
export declare const MAX_ANNOUNCED_PER_SIGNAL = 1000;
export interface StopRequest {
    queue: string;
    leaseIds: string[];
}
/** At most this many lease ids in one stop activity's input (each at most ~330 chars). */
export declare const MAX_STOPS_PER_REQUEST = 500;
/**
 * The announcements an `attemptRunning` signal carries; none when it is not one (it comes from
 * outside, so everything is bounded: a malformed entry is dropped, the rest kept).
 */
export declare function parseAnnouncements(payload: unknown): Announcement[];
/** Stops grouped by queue (in first-seen order), each lease once, in chunks of `MAX_STOPS_PER_REQUEST`. */
export declare function stopsByQueue(stops: ReadonlyArray<{
    queue: string;
    leaseId: string;
}>): StopRequest[];
