/**
 * The packed form of a plan, as a run's continue-as-new snapshot carries it (src/team/snapshot.ts
 * packs the task states beside it), and as the plan's size bound counts it (validate.ts). Pure
 * and lossless.
 */
import { type ExecutorSpec, type TaskSpec, type TeamPlan } from './schema';
/** A plan with its executors in a table and each task spec a row (see `PackedTaskSpec`). */
export type PackedPlan = Omit<TeamPlan, 'tasks'> & {
    executors: ExecutorSpec[];
    tasks: PackedTaskSpec[];
};
/** `[key, executor, dependsOn, rest]`: executor indexes `plan.executors`, dependsOn holds plan indices. */
export type PackedTaskSpec = [string, number, number[]?, Partial<TaskSpec>?];
/** Equal values, or equal as JSON (the defaults compared against are plain data). */
export declare const sameJson: (a: unknown, b: unknown) => boolean;
/** A plan as a snapshot carries it: executors in a table, task specs as rows without their defaults. */
export declare function packPlan(plan: TeamPlan): PackedPlan;
/** The plan a packed one was made from, each task spec with its schema defaults filled back in. */
export declare function unpackPlan(packed: PackedPlan): TeamPlan;
