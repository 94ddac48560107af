import { type TaskSpec, type TeamPlan } from './schema';
import { type PlanProblem } from './validate';
/** The running graph as the checks of added tasks need it. */
export interface RunningGraph {
    /** Is there a task with this key in the run (any status)? */
    has(key: string): boolean;
    /** Tasks in the run now. */
    readonly size: number;
    /** Every key in the run, for a did-you-mean (read only when a dependency is unknown). */
    keys(): Iterable<string>;
}
/**
 * Checks tasks to add to a running run exactly as a plan's tasks are checked, against the run's
 * graph: keys unique across the run and the batch, every dependency in the run or the batch, no
 * self or repeated dependency, no cycle, scopes inside the workspace (normalised in place, as a
 * plan's are), activity queues the plan allows, and the run's size within the plan's bounds (its
 * task count, and what it packs to when it continues as new). Paths are the request's
 * (`tasks[2].dependsOn[0]`).
 *
 * A cycle can only lie inside the batch: tasks already in the run never depend on a new one (their
 * dependencies are fixed and were all known), so a dependency on a settled task never closes one.
 */
export declare function validateAddedTasks(tasks: ReadonlyArray<TaskSpec>, graph: RunningGraph, plan: TeamPlan): PlanProblem[];
