import { type Client } from '@temporalio/client';
import { type TeamRunHandle } from '../client';
import { type PendingAttempt } from '../client/run-health';
import type { AdjudicationRecord, RunResult, StatusView as RunStatusView, TasksQuery, TaskView } from '../contract';
/**
 * What `status` shows of a run, the same whether the run is open (read from its queries) or
 * closed (read from its result, so no worker is needed to look at a finished run).
 */
export interface RunOverview {
    workflowId: string;
    open: boolean;
    name: string | null;
    /** A run state (`running`, `succeeded`, ...), or `workflow <status>` when the workflow itself did not complete. */
    state: string;
    /** Why the workflow itself failed (an invalid plan, a termination), null otherwise. */
    failure: string | null;
    stats: RunStatusView['stats'] | RunResult['stats'] | null;
    budget: RunStatusView['budget'] | null;
    executions: number | null;
    maxConcurrent: number | null;
    pendingAdjudications: AdjudicationRecord[];
    /** An open run's attempts as Temporal holds them: `scheduled` ones no worker has started yet. */
    attempts: PendingAttempt[];
    /** When Temporal's cancellation of the run was requested (an open run closes once its attempts settle). */
    cancelRequestedAt: number | null;
}
export declare class RunReader {
    private readonly client;
    readonly workflowId: string;
    readonly handle: TeamRunHandle;
    private closed;
    constructor(client: Client, workflowId: string);
    overview(): Promise<RunOverview>;
    tasks(query: TasksQuery): Promise<TaskView[]>;
    private describe;
    private closedOutcome;
    /**
     * A run whose workflow task keeps failing answers no query: say why (missing search attributes
     * above all) instead of suggesting a worker that is there.
     */
    private throwIfStuck;
    private query;
}
