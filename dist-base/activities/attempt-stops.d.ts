import { Context } from '@temporalio/activity';
import type { AdoptAttemptInput, ConfirmAttemptRequest, RunTaskResult, StopActivities } from './interface';
import { type AttemptsRunning } from '../team/stop-channel';
import type { LiveAttempt } from './attempt-runner';
/**
 * The attempts this worker process runs now, by lease id, each with the function that stops it
 * at once; and the name of the task queue only this process polls (its stop queue). A run that
 * stops one of them sends `stopAttempts` there (src/worker/stop-channel.ts), so an interrupt does
 * not wait for the attempt's next heartbeat.
 */
export declare class AttemptStops {
    readonly queue: string;
    private readonly signal?;
    private readonly batchMs;
    private readonly running;
    private readonly unannounced;
    private flushing;
    /** Stops delivered (attempts found and stopped), for the worker's own counters. */
    delivered: number;
    /**
     * `signal` sends one announcement signal to a run. Announcements wait `batchMs` to share a
     * signal with the others for the same run: 1,000 attempts starting together on 4 workers cost
     * a handful of signals (and history events), not 1,000.
     */
    constructor(queue: string, signal?: ((workflowId: string, payload: AttemptsRunning) => Promise<unknown>) | undefined, batchMs?: number);
    /** Tells run `workflowId` that its attempt `key`/`fencingToken` is reachable on this worker's stop queue. */
    announce(workflowId: string, key: string, fencingToken: number): void;
    private flush;
    /**
     * Registers a running attempt; the returned function unregisters it, unless it was handed over
     * and waits for its adopt (then the adopt, or the expiry, ends it). `adoptable` attempts can be
     * handed over; `keepMs` bounds how long one waits for its adopt.
     */
    register(leaseId: string, stop: () => void, adoptable?: {
        live: LiveAttempt;
        keepMs: number;
    }): () => void;
    /**
     * Their run is continuing as new: each attempt of `leaseIds` this process runs keeps running
     * for the next run's adopt, at most its `keepMs` (then it is stopped and forgotten, as a lost
     * lease). Returns how many it found.
     */
    handOver(leaseIds: ReadonlyArray<string>): number;
    /** True while the attempt waits for its next run's adopt. */
    handedOver(leaseId: string): boolean;
    /**
     * The next run re-attaches to attempt `leaseId` (whether or not the hand-over reached this
     * process first); undefined when this process does not run it (restarted, stopped, gave up).
     */
    adopt(leaseId: string): LiveAttempt | undefined;
    /** An adopt is done with attempt `leaseId`: forgotten, unless it waits for a later run's adopt again. */
    release(leaseId: string, live: LiveAttempt): void;
    /** Stops each attempt of `leaseIds` this process runs; returns how many it found. */
    stop(leaseIds: ReadonlyArray<string>): number;
}
/** How an adopted attempt is attended: the same code runTask attends it with (attempt-runner.ts). */
export type Adopting = (ctx: Context, live: LiveAttempt, input: AdoptAttemptInput) => Promise<RunTaskResult>;
/**
 * `confirm` answers for the worker's attempt gateway (without one nothing is confirmed); `adopting`
 * attends attempts a continued run adopts (without it adopts fail as lost leases).
 */
export declare function createStopActivities(stops: AttemptStops, options?: {
    confirm?: (input: ConfirmAttemptRequest) => boolean;
    adopting?: Adopting;
}): StopActivities;
