"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMPACT_RESULT = exports.RESULT_TASKS_COMPACT_BYTES = exports.RESULT_TASKS_MAX_BYTES = void 0;
exports.boundTaskViews = boundTaskViews;
/**
 * Bound on the task views in a run's result. Temporal caps a workflow result at 2 MB, and a
 * view is about 300 bytes (more with an output), so a run of more than a few thousand tasks
 * cannot return every view; the rest of the result (stats, budget, adjudications) stays small.
 */
exports.RESULT_TASKS_MAX_BYTES = 1_000_000;
/**
 * The bound since compact results (a patch): every view of a run of up to about 200 small tasks.
 * The result is stored in the run's history, once more than the views the `tasks` query answers
 * from (on a closed run too), so a big run's views beyond this (succeeded ones first) are left to
 * that query: at 2,000 tasks, 33 bytes of history per task rather than 300.
 */
exports.RESULT_TASKS_COMPACT_BYTES = 64 * 1024;
exports.COMPACT_RESULT = 'teamrun-compact-result';
/**
 * The task views a result carries: all of them when they fit in `maxBytes`; otherwise every
 * task that did not succeed (the ones a reader has to look at), then succeeded ones in plan
 * order, while they fit. Views keep plan order; `omittedTasks` counts the ones left out, which
 * the `tasks` query (it answers on a closed run too) still pages through.
 */
function boundTaskViews(views, maxBytes = exports.RESULT_TASKS_MAX_BYTES) {
    const sizes = views.map((view) => JSON.stringify(view).length + 1);
    let total = 0;
    for (const size of sizes)
        total += size;
    if (total <= maxBytes)
        return { tasks: [...views], omittedTasks: 0 };
    const keep = new Array(views.length).fill(false);
    let used = 0;
    for (const succeeded of [false, true]) {
        views.forEach((view, i) => {
            if ((view.status === 'succeeded') !== succeeded || used + sizes[i] > maxBytes)
                return;
            keep[i] = true;
            used += sizes[i];
        });
    }
    const tasks = views.filter((_, i) => keep[i]);
    return { tasks, omittedTasks: views.length - tasks.length };
}
