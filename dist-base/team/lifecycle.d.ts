/**
 * The run's lifecycle: what it waits for, when waiting on people gives up, its state and final
 * status, and closing it with its result. Reads every part; changes only the run's own
 * lifecycle fields (awaitingSince, closed) and, on finish, skips what can no longer start.
 */
import type { RunResult, RunState, RunStatus, StatusView } from '../contract';
import type { RunContext } from './context';
/** What the workflow waits for after a step: any change, or also a time. */
export interface Wait {
    /** Wake after this long even if nothing changed; null waits for a change only; 0 or less does not wait. */
    timeoutMs: number | null;
    /** Waiting on adjudication only: if nothing moved by this time, the run closes unresolved. */
    closesAt: number | null;
}
export declare function beginWait(run: RunContext, now: number, handingOver: boolean): Wait;
/**
 * The earliest time after `now` a task waiting out its retry backoff becomes claimable. Ready
 * tasks already past their backoff (waiting for a teammate or a scope) wake nothing: a settle
 * frees those, and must not hide a later backoff that only time ends.
 */
export declare function nextWakeAt(run: RunContext, now: number): number | null;
/**
 * While the run waits on adjudication only: when that wait gives up (`adjudicationTimeoutMs`
 * after it began), starting its clock if it had not. Null, and the clock reset, while the run
 * has work. The clock is in the snapshot, so continuing as new does not restart it.
 */
export declare function adjudicationDeadline(run: RunContext, now: number): number | null;
export declare function closeUnresolved(run: RunContext, now: number): void;
export declare function runStatus(run: RunContext): RunStatus;
export declare function state(run: RunContext): RunState;
export declare function status(run: RunContext, now: number): StatusView;
/** Closes the run: tasks that can no longer start are skipped, `run:end` recorded. */
export declare function finish(run: RunContext, now: number): RunResult;
