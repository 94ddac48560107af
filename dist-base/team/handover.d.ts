/**
 * Owns handing a run over to a fresh workflow run (continue-as-new): when it is due (from history
 * size and event count), which attempts in flight may be carried across instead of waited for,
 * what the next run does with each carried attempt, and what an adopt's failure means. Pure: the
 * workflow turns these answers into commands.
 */
import type { ExecutorSpec } from '../plan/schema';
import type { RunContext } from './context';
import { type StopRequest } from './stop-channel';
import type { Attempt, AttemptOutcome } from './types';
/**
 * When a run hands over to a fresh workflow run (continue-as-new).
 *
 * The event count is teamrun's own bound: the plan's `continueAsNewAfterEvents` (default 8,000,
 * at most 10,000, under the 10,240 events at which Temporal warns). Temporal also suggests a
 * handover (`continueAsNewSuggested`), by default at 4,096 events or 4 MB of history. Following
 * the count half of that suggestion made a 2,000-task run hand over once where a bare fan-out
 * never does (a drain of everything in flight, then a restart), and a 1,000-teammate run hand
 * over every ~4,000 events, each time draining 1,000 attempts. So the suggestion is followed for
 * history size only: at `SUGGESTED_SIZE_BYTES` or more.
 */
export declare const SUGGESTED_SIZE_BYTES: number;
export interface HistoryInfo {
    historyLength: number;
    historySize: number;
    continueAsNewSuggested: boolean;
}
/** `maxBytes`: the run's own bound on history size (`CONTINUE_AS_NEW_HISTORY_BYTES`), whatever Temporal suggests. */
export declare function handOverDue(info: HistoryInfo, afterEvents: number, maxBytes: number): boolean;
/**
 * The older rule: any suggestion from Temporal hands over, whatever the history's size. Runs whose
 * history began under it keep it, so they replay as they ran.
 */
export declare function handOverOnAnySuggestion(info: HistoryInfo, afterEvents: number, maxBytes: number): boolean;
/**
 * Carrying attempts across a handover. A handover used to wait until nothing was in flight, so
 * one long attempt blocked it for as long as it ran while signals (rejected ones included: a
 * signal is recorded before any handler sees it) grew the history up to the server's limit.
 * An attempt that announced its worker's stop queue can instead be carried: the snapshot keeps
 * its lease (same fencing token: it is the same attempt), its worker is told to keep the
 * executor (`handOverAttempts`), and the next run re-attaches to it there (`adoptAttempt`).
 *
 * Not carried, and waited for as before: an attempt that has not announced yet (short, or about
 * to announce), one already stopped (its cancellation is on its way and ends it), and every
 * attempt of a run that holds shared-ledger slots (the slot's renewal lives in the old attempt).
 */
export declare function carriable(attempt: Attempt): boolean;
/** True when the run may hand over now with `attempts` in flight (none, or all carriable). */
export declare function mayCarry(attempts: Iterable<Attempt>, sharedLedger: boolean): boolean;
/** The `handOverAttempts` the old run sends before it continues as new: one per worker stop queue. */
export declare function handOverRequests(attempts: Iterable<Attempt>): StopRequest[];
/**
 * How long a worker keeps a handed-over executor waiting for the next run's adopt, and how long
 * the adopt may wait for that worker to pick it up: the lease TTL, and never under 30 s (a new
 * run's first workflow task on a busy server). Past it the worker kills the executor and the run
 * counts the lease lost, so the attempt never outlives its lease by more than this.
 */
export declare const ADOPT_WITHIN_MIN_MS = 30000;
export declare function adoptWithinMs(ttlMs: number): number;
/** The failure type of an adopt that found no such attempt on its worker (restarted, or it gave up waiting). */
export declare const ATTEMPT_GONE = "TeamAttemptGone";
/**
 * What an adopt's outcome means for its attempt. An adopt settles the task exactly as the attempt's
 * runTask would, except: its worker no longer had the attempt (`ATTEMPT_GONE`), or nobody picked
 * the adopt up in time (`timedOut`): the attempt's outcome is unknown, a lost lease; and an adopt
 * cancelled before it started was stopped by the run, but the attempt had started long before: a
 * cancellation (the stop on its worker's queue ends the executor), never "not started".
 */
export declare function adoptOutcome(outcome: AttemptOutcome, timedOut: boolean): AttemptOutcome;
/** A carried attempt the next run re-attaches to, with what its adopt activity needs. */
export interface Adoption {
    key: string;
    title: string;
    /** Carried attempts announced their worker's stop queue: the adopt goes there. */
    attempt: Attempt & {
        stopQueue: string;
    };
    executor: ExecutorSpec;
    ttlMs: number;
    heartbeatEveryMs: number;
}
/** The attempts a snapshot carried into this run (each still holds its lease), to adopt. */
export declare function adoptions(run: RunContext): Adoption[];
