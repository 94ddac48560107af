/**
 * The lease's heartbeats, on their own timers whatever the executor does: the first one
 * `firstInMs` from now (`everyMs` by default; an attempt shorter than that sends none: Temporal
 * counts the heartbeat timeout from the start until the first heartbeat), then one per `everyMs`.
 * `now()` sends one at once (a stop asks the server for the attempt's cancellation).
 */
export interface Heartbeats {
    now(): void;
    stop(): void;
}
export declare function paceHeartbeats(beat: () => void, everyMs: number, firstInMs?: number): Heartbeats;
/**
 * When the first heartbeat is due, from now: `everyMs` after the attempt was scheduled. Temporal
 * counts the heartbeat timeout from the activity's start, when it handed the task to the worker's
 * poller, possibly long before the activity function runs on a busy worker (seen: 11 s,
 * with 100 attempts starting at once on two loaded cores, which lost a 60 s lease paced from the
 * function's start). The start is never before the schedule, so this is never late; a clock
 * ahead of the server's only makes it early.
 */
export declare function firstHeartbeatInMs(everyMs: number, scheduledAtMs: number, nowMs: number): number;
/** Without a pace from the plan: the default for a heartbeat timeout of `ttlMs` (see src/plan/lease-pace.ts). */
export { defaultHeartbeatEveryMs } from '../plan/lease-pace';
