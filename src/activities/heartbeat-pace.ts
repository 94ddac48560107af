/**
 * The lease's heartbeats, on their own timers whatever the executor does: the first one
 * `everyMs` after the start (an attempt shorter than that sends none: Temporal counts the
 * heartbeat timeout from the start until the first heartbeat), then one per `everyMs`.
 * `now()` sends one at once (a stop asks the server for the attempt's cancellation).
 */
export interface Heartbeats {
  now(): void;
  stop(): void;
}

export function paceHeartbeats(beat: () => void, everyMs: number): Heartbeats {
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    beat();
    interval = setInterval(beat, everyMs);
  }, everyMs);
  return {
    now: beat,
    stop() {
      clearTimeout(first);
      clearInterval(interval);
    },
  };
}

/** Without a pace from the plan: the default for a heartbeat timeout of `ttlMs` (see src/plan/lease-pace.ts). */
export { defaultHeartbeatEveryMs } from '../plan/lease-pace';
