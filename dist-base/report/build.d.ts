import type { AdjudicationRecord, BudgetView, TaskView } from '../contract';
import type { HistoryFacts } from './history-facts';
import type { RunReport } from './model';
/** The run's own view of itself: its result when closed, its queries while open. */
export interface FinalState {
    state: string;
    stats: RunReport['stats'];
    tasks: TaskView[];
    adjudications: AdjudicationRecord[];
    budget: BudgetView;
}
/** What Temporal says about the execution besides its history. */
export interface ExecutionFacts {
    workflowId: string;
    runIds: string[];
    team: string | null;
    taskQueue: string | null;
    /** `RUNNING`, `COMPLETED`, `FAILED`, `TERMINATED`, ... */
    workflowStatus: string;
    /** The Temporal Web UI base URL and namespace, for links; null when unknown. */
    webUi?: {
        base: string;
        namespace: string;
    } | null;
    /** Attempts still running: the server has not written their Started event yet. */
    pending: Array<{
        activityId: string;
        startedAt: number | null;
        worker: string | null;
    }>;
}
/** Puts a run's history and final state together into the report's story. */
export declare function buildReport(facts: HistoryFacts, execution: ExecutionFacts, final: FinalState | null, now: number): RunReport;
