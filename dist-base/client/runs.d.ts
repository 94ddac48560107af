import type { Client } from '@temporalio/client';
import { TeamrunError } from '../errors';
/** One run as `teamrun runs` lists it. */
export interface RunSummary {
    workflowId: string;
    runId: string;
    team: string | null;
    /**
     * The team run's state (`TeamRunStatus`, e.g. `awaiting_adjudication`);
     * `canceled` etc. when the workflow itself says more.
     */
    state: string;
    /** Temporal's execution status: `RUNNING`, `COMPLETED`, `CANCELLED`, `TERMINATED`, ... */
    workflowStatus: string;
    pendingAdjudications: number | null;
    budgetStopped: boolean | null;
    startedAt: number;
    closedAt: number | null;
    /** Tasks settled of the total, from the `status` query (open) or the result (closed); null when unreadable. */
    progress: {
        done: number;
        total: number;
    } | null;
    budgetUsed: {
        attempts: number;
        tokens: number;
        usd: number;
    } | null;
}
export interface RunsFilter {
    team?: string;
    /**
     * Run states (`running`, `awaiting_adjudication`, `succeeded`, ...) or
     * workflow statuses (`canceled`, `terminated`, `timed_out`, `open`, `closed`).
     */
    statuses?: string[];
    /** Only runs started after this time (ms since epoch). */
    since?: number;
    /** At most this many runs, newest first. */
    limit?: number;
}
export declare class RunsFilterError extends TeamrunError {
    readonly code = "invalid_filter";
}
/** The valid `--status` values, for help and errors. */
export declare const RUN_STATUS_FILTERS: string[];
/** The visibility query of a filter: team runs only, on the search attributes of CONTRACT.md. */
export declare function runsQuery(filter: RunsFilter): string;
/** `7d`, `12h`, `30m`, `45s` before `now`, or an ISO date. */
export declare function parseSince(value: string, now?: number): number;
/** Recent team runs from visibility, newest first, each with its progress and budget used. */
export declare function listTeamRuns(client: Client, filter?: RunsFilter): Promise<RunSummary[]>;
