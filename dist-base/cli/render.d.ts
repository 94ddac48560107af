import type { AdjudicationRecord, BudgetView, RunResult, TaskView } from '../contract';
import type { RunOverview } from './run-view';
type Stats = NonNullable<RunOverview['stats']>;
export declare function statsLine(stats: Stats): string;
/** Budget as used / reserved / limit, one row per dimension. */
export declare function budgetTable(budget: BudgetView): string;
export declare function tasksTable(tasks: TaskView[], noteWidth?: number): string;
export declare function adjudicationsTable(pending: AdjudicationRecord[]): string;
/** What `start --wait` and `demo` print when a run has finished. */
export declare function renderResult(workflowId: string, result: RunResult): string;
/** What `status` prints. */
export declare function renderOverview(overview: RunOverview, webUi: string | null): string;
export {};
