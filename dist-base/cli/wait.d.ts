import { type TeamRunHandle } from '../client';
import type { RunResult } from '../contract';
import { type ProgressOptions } from './progress';
/**
 * Waits for a run's result while showing its progress from the `status` query. A workflow that
 * fails instead of returning a result (an invalid plan, a termination) becomes a CliError.
 * `leaveOnCtrlC`: Ctrl-C exits 130 with a line saying the run goes on.
 */
export declare function waitForRun(handle: TeamRunHandle, progressOptions?: ProgressOptions, options?: {
    leaveOnCtrlC?: boolean;
}): Promise<RunResult>;
