/**
 * The leases: which attempt holds each running task, which teammate holds it, and the stops the
 * workflow still has to deliver (cancellations, and stops on a worker's own queue). An attempt
 * lives in `tasks[i].current` in the snapshot; this keeps the live index by task key and by
 * holder. It does not decide what an attempt's outcome does to its task.
 */
import type { ActiveClaim } from '../contract';
import { attemptActivityId, leaseIdOf } from '../activities/interface';
import { parseAnnouncements, stopsByQueue, type StopRequest } from './stop-channel';
import type { Attempt, AttemptStop, LinkedRun, Reservation, TaskState } from './types';

export interface Cancellation {
  key: string;
  fencingToken: number;
}

/** The runs an ended attempt started, and the abort each is sent (src/team/coordinated.ts). */
export interface LinkEnd {
  runs: LinkedRun[];
  abort: { code: string; reason: string; requestId: string; requireAdjudication: false };
}

export class Leases {
  private readonly active = new Map<string, Attempt>();
  /** Teammate names holding an attempt (`teammate-<n>`): the holder is stored, never parsed back. */
  private readonly holders = new Set<string>();
  private readonly cancels: Cancellation[] = [];
  /** Stopped attempts that announced a stop queue: each gets a stop there besides its cancellation. */
  private readonly stops: Array<{ queue: string; leaseId: string }> = [];
  /** Runs whose coordinating attempt ended: the workflow aborts them (src/team/coordinated.ts). */
  private readonly linkEnds: LinkEnd[] = [];

  constructor(private readonly teammates: number) {}

  /**
   * An attempt a snapshot carried (`tasks[i].current`). One stopped while its run handed over is
   * stopped again here: the cancellation the old run queued did not travel in the snapshot.
   */
  restore(key: string, attempt: Attempt): void {
    this.active.set(key, attempt);
    this.holders.add(attempt.holder);
    if (attempt.stop) this.cancels.push({ key, fencingToken: attempt.fencingToken });
  }

  get size(): number {
    return this.active.size;
  }

  get(key: string): Attempt | undefined {
    return this.active.get(key);
  }

  keys(): IterableIterator<string> {
    return this.active.keys();
  }

  values(): IterableIterator<Attempt> {
    return this.active.values();
  }

  /** Leases `task` to the first free teammate: the next attempt, with the next fencing token. */
  open(task: TaskState, workflowId: string, reservation: Reservation, now: number): Attempt {
    let slot = 1;
    while (this.holders.has(`teammate-${slot}`) && slot < this.teammates) slot += 1;
    task.attempts += 1;
    task.fencingToken += 1;
    const fencingToken = task.fencingToken;
    const attempt: Attempt = {
      attempt: task.attempts,
      fencingToken,
      leaseId: leaseIdOf(workflowId, task.key, fencingToken),
      holder: `teammate-${slot}`,
      activityId: attemptActivityId(task.key, fencingToken),
      startedAt: now,
      workerIdentity: null,
      reservation,
      stop: null,
    };
    task.current = attempt;
    task.holder = attempt.holder;
    this.active.set(task.key, attempt);
    this.holders.add(attempt.holder);
    return attempt;
  }

  /** The attempt ended: its task and its teammate are free. */
  close(task: TaskState, attempt: Attempt): void {
    task.current = null;
    this.active.delete(task.key);
    this.holders.delete(attempt.holder);
  }

  /** Marks the attempt stopped and queues its cancellation. */
  stop(key: string, attempt: Attempt, stop: AttemptStop): void {
    attempt.stop = stop;
    this.cancels.push({ key, fencingToken: attempt.fencingToken });
  }

  /** Stops every attempt not stopped already; returns how many it stopped. */
  stopAll(stop: AttemptStop): number {
    let stopped = 0;
    for (const [key, attempt] of this.active) {
      if (attempt.stop) continue;
      this.stop(key, attempt, stop);
      stopped += 1;
    }
    return stopped;
  }

  /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
  drainCancellations(): Cancellation[] {
    const cancels = this.cancels.splice(0);
    for (const { key } of cancels) {
      const attempt = this.active.get(key);
      if (attempt?.stopQueue) this.stops.push({ queue: attempt.stopQueue, leaseId: attempt.leaseId });
    }
    return cancels;
  }

  /** A coordinating attempt ended: its linked runs are to be aborted with `abort`. */
  linkEnded(end: LinkEnd): void {
    this.linkEnds.push(end);
  }

  /** The linked runs the workflow must abort now. */
  drainLinkEnds(): LinkEnd[] {
    return this.linkEnds.splice(0);
  }

  /** Stops the workflow must send now, one per worker stop queue (after `drainCancellations`). */
  drainStops(): StopRequest[] {
    return stopsByQueue(this.stops.splice(0));
  }

  /**
   * Running attempts say which worker queue reaches them. Anything but the live attempt of a task
   * is ignored; an attempt already stopped gets its stop at once. Returns how many it applied to
   * and whether a stop was queued.
   */
  announce(payload: unknown): { applied: number; stopsQueued: number } {
    let applied = 0;
    let stopsQueued = 0;
    for (const announcement of parseAnnouncements(payload)) {
      const attempt = this.active.get(announcement.key);
      if (!attempt || attempt.fencingToken !== announcement.fencingToken || attempt.stopQueue) continue;
      attempt.stopQueue = announcement.queue;
      applied += 1;
      if (attempt.stop) {
        this.stops.push({ queue: attempt.stopQueue, leaseId: attempt.leaseId });
        stopsQueued += 1;
      }
    }
    return { applied, stopsQueued };
  }

  /**
   * Attempts holding a lease now. Which worker runs one is not known here until it ends (it
   * travels in heartbeats and results); `temporal workflow describe` shows it meanwhile.
   */
  claimsView(): ActiveClaim[] {
    return [...this.active.entries()].map(([key, a]) => ({
      key,
      holder: a.holder,
      leaseId: a.leaseId,
      fencingToken: a.fencingToken,
      attempt: a.attempt,
      activityId: a.activityId,
      startedAt: a.startedAt,
      interrupted: a.stop?.kind === 'interrupt',
      interruption: a.stop?.kind === 'interrupt' ? a.stop.interruption : null,
    }));
  }
}
