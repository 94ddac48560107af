/**
 * Owns the heartbeat pace of an attempt's lease, when an attempt announces its stop queue, and the
 * time bounds of its activity. Constants and pure functions shared by the run, the workflow and the
 * worker; no state.
 */
/**
 * How often an attempt heartbeats, and when it becomes reachable for a stop of its own.
 *
 * Temporal counts an attempt's heartbeat timeout (the lease TTL) from its start until its first
 * heartbeat, and from each heartbeat to the next. So an attempt shorter than its first
 * heartbeat's deadline needs none (it costs what a bare activity costs), and a long one needs
 * one per `heartbeatEveryMs`, not one a second: every heartbeat is a server RPC and, on Temporal
 * Cloud, a billable action.
 */
export const LEASE_PACE = {
  /** The fastest pace a plan may ask for. */
  minHeartbeatEveryMs: 250,
  /** The slowest, as a fraction of the TTL: the SDK's own default throttle (80% of the heartbeat timeout). */
  maxFractionOfTtl: 0.8,
  /** By default a heartbeat has a third of the TTL, and never less than this, to reach the server. */
  defaultMarginMs: 10_000,
  defaultMarginFractionOfTtl: 1 / 3,
} as const;

/**
 * The default pace for a lease of `ttlMs`: the TTL less a margin of a third of it, at least 10 s, and at
 * most half the TTL. 30 s TTL -> every 20 s (a 10-minute attempt sends 30 heartbeats); 3 s -> every 1.5 s;
 * 1 min -> every 40 s; 2 min -> every 80 s. The margin is what a late heartbeat may lose before the server
 * declares the lease lost. On a worker far past its cores an attempt's function was seen starting 11 s after
 * the server handed it over, and its timers lag alike: a long lease keeps a share of its TTL, not a fixed 10 s.
 */
export function defaultHeartbeatEveryMs(ttlMs: number): number {
  const margin = Math.max(LEASE_PACE.defaultMarginMs, ttlMs * LEASE_PACE.defaultMarginFractionOfTtl);
  return Math.floor(ttlMs - Math.min(margin, ttlMs / 2));
}

/** The slowest pace a lease of `ttlMs` allows. */
export function maxHeartbeatEveryMs(ttlMs: number): number {
  return Math.floor(ttlMs * LEASE_PACE.maxFractionOfTtl);
}

/** The pace an attempt heartbeats at: the lease's own, or the default for its TTL. */
export function heartbeatEveryMs(lease: { ttlMs: number; heartbeatEveryMs?: number }): number {
  return lease.heartbeatEveryMs ?? defaultHeartbeatEveryMs(lease.ttlMs);
}

/**
 * An attempt still running this long after it started tells its run where to send a stop (its
 * worker's own task queue, see src/worker/stop-channel.ts): from then on an interrupt reaches it
 * in one activity dispatch, whatever its heartbeat pace. Shorter attempts never announce (a
 * `noop` costs no more than a bare activity); one interrupted before it announces is stopped as
 * soon as it does, or by the response to its first heartbeat, whichever comes first.
 */
export const STOP_ANNOUNCE_AFTER_MS = 1_000;

/** Bound on a worker's stop queue name, as an announcement carries it into the run's state. */
export const MAX_STOP_QUEUE_CHARS = 300;

const CONTROL_SUFFIX = '/teamrun-control';

/**
 * The queue of a run's control activities (its ledger's slots, extensions and settlements, its asks of a parent, a
 * steer): every worker of `taskQueue` polls it too, with slots of its own, so a worker whose slots all run attempts
 * still answers what those attempts wait for. On the run's queue, 2 attempts on 2 slots that asked for more waited
 * 30 s for their ledger extension and were refused `ledger-unreachable`.
 */
export function controlQueueName(taskQueue: string): string {
  return `${taskQueue}${CONTROL_SUFFIX}`;
}

/** Whether a task queue's name is one `controlQueueName` made. */
export function isControlQueue(name: string): boolean {
  return name.endsWith(CONTROL_SUFFIX);
}

/**
 * The start-to-close bound of an attempt's activity. The executor enforces its own `timeoutMs`;
 * this only bounds an attempt that ignores it (the timeout, one lease and a minute), and an
 * executor without one gets 30 days.
 */
export function attemptTimeoutMs(executor: object, ttlMs: number): number {
  const timeoutMs = (executor as { timeoutMs?: unknown }).timeoutMs;
  return typeof timeoutMs === 'number' ? timeoutMs + ttlMs + 60_000 : 30 * 24 * 3600_000;
}

/** The bound of one teammateIdle hook run: its executor's timeout (10 minutes unless it says) and a minute. */
export function hookTimeoutMs(executor: object): number {
  return ((executor as { timeoutMs?: number }).timeoutMs ?? 600_000) + 60_000;
}
