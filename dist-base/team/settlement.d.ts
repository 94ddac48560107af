import type { RunContext } from './context';
import type { AttemptOutcome } from './types';
/**
 * Settles a task from the outcome of one attempt. Anything but the attempt the run is
 * waiting on is recorded and changes nothing: a late result can never become a success.
 */
export declare function settle(run: RunContext, key: string, fencingToken: number, outcome: AttemptOutcome, now: number): void;
