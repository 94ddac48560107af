/**
 * The run result's one rule of its own: which task views fit in it. The result's shape is
 * declared in src/contract (`RunResult`); the run's lifecycle (lifecycle.ts) assembles it.
 */
import type { TaskView } from '../contract';
/**
 * Bound on the task views in a run's result. Temporal caps a workflow result at 2 MB, and a
 * view is about 300 bytes (more with an output), so a run of more than a few thousand tasks
 * cannot return every view; the rest of the result (stats, budget, adjudications) stays small.
 */
export declare const RESULT_TASKS_MAX_BYTES = 1000000;
/**
 * The bound since compact results (a patch): every view of a run of up to about 200 small tasks.
 * The result is stored in the run's history, once more than the views the `tasks` query answers
 * from (on a closed run too), so a big run's views beyond this (succeeded ones first) are left to
 * that query: at 2,000 tasks, 33 bytes of history per task rather than 300.
 */
export declare const RESULT_TASKS_COMPACT_BYTES: number;
export declare const COMPACT_RESULT = "teamrun-compact-result";
/**
 * The task views a result carries: all of them when they fit in `maxBytes`; otherwise every
 * task that did not succeed (the ones a reader has to look at), then succeeded ones in plan
 * order, while they fit. Views keep plan order; `omittedTasks` counts the ones left out, which
 * the `tasks` query (it answers on a closed run too) still pages through.
 */
export declare function boundTaskViews(views: ReadonlyArray<TaskView>, maxBytes?: number): {
    tasks: TaskView[];
    omittedTasks: number;
};
