/**
 * The leases: which attempt holds each running task, which teammate holds it, and the stops the
 * workflow still has to deliver (cancellations, and stops on a worker's own queue). An attempt
 * lives in `tasks[i].current` in the snapshot; this keeps the live index by task key and by
 * holder. It does not decide what an attempt's outcome does to its task.
 */
import type { ActiveClaim } from '../contract';
import { type StopRequest } from './stop-channel';
import type { Attempt, AttemptStop, Reservation, TaskState } from './types';
export interface Cancellation {
    key: string;
    fencingToken: number;
}
export declare class Leases {
    private readonly teammates;
    private readonly active;
    /** Teammate names holding an attempt (`teammate-<n>`): the holder is stored, never parsed back. */
    private readonly holders;
    private readonly cancels;
    /** Stopped attempts that announced a stop queue: each gets a stop there besides its cancellation. */
    private readonly stops;
    constructor(teammates: number);
    /**
     * An attempt a snapshot carried (`tasks[i].current`). One stopped while its run handed over is
     * stopped again here: the cancellation the old run queued did not travel in the snapshot.
     */
    restore(key: string, attempt: Attempt): void;
    get size(): number;
    get(key: string): Attempt | undefined;
    keys(): IterableIterator<string>;
    values(): IterableIterator<Attempt>;
    /** Leases `task` to the first free teammate: the next attempt, with the next fencing token. */
    open(task: TaskState, workflowId: string, reservation: Reservation, now: number): Attempt;
    /** The attempt ended: its task and its teammate are free. */
    close(task: TaskState, attempt: Attempt): void;
    /** Marks the attempt stopped and queues its cancellation. */
    stop(key: string, attempt: Attempt, stop: AttemptStop): void;
    /** Stops every attempt not stopped already; returns how many it stopped. */
    stopAll(stop: AttemptStop): number;
    /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
    drainCancellations(): Cancellation[];
    /** Stops the workflow must send now, one per worker stop queue (after `drainCancellations`). */
    drainStops(): StopRequest[];
    /**
     * Running attempts say which worker queue reaches them. Anything but the live attempt of a task
     * is ignored; an attempt already stopped gets its stop at once. Returns how many it applied to
     * and whether a stop was queued.
     */
    announce(payload: unknown): {
        applied: number;
        stopsQueued: number;
    };
    /**
     * Attempts holding a lease now. Which worker runs one is not known here until it ends (it
     * travels in heartbeats and results); `temporal workflow describe` shows it meanwhile.
     */
    claimsView(): ActiveClaim[];
}
