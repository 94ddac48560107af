/**
 * Owns the packed form of a run's snapshot for continue-as-new, and packing it back. Pure and
 * lossless; what the snapshot holds is each part's business, not this file's.
 */
import { type PackedPlan } from '../plan/packed';
import type { TeamRunSnapshot } from './run';
import { type TaskState } from './types';
/**
 * The form a run's snapshot travels in when the run continues as new. Temporal caps one
 * payload at 2 MB and the snapshot holds the whole plan, so it is packed: each task spec is a
 * row (its key, an index into a table of distinct executors, its dependencies as plan indices,
 * and only the fields that differ from their schema default), and each task's state is a row
 * of numbers (times relative to the run's start) instead of an object repeating every field
 * name. For a 10,000-task plan this takes the snapshot from about 4.8 MB to well under 1 MB.
 */
export interface PackedSnapshot extends Omit<TeamRunSnapshot, 'plan' | 'tasks'> {
    format: typeof FORMAT;
    plan: PackedPlan;
    /** One row per plan task, in plan order; see `PackedTask`. */
    tasks: PackedTask[];
}
/**
 * `[status, attempts, uncounted, fencingToken, holder, readyAt, startedAt, settledAt, rest]`:
 * `status` indexes TASK_STATUSES, `holder` is the teammate number (0 = none), times are
 * milliseconds after the run started, and `rest` holds every other field that is not at its
 * default. Trailing entries at their default are dropped (a task not started yet is `[0]`).
 */
export type PackedTask = [number, ...Array<number | string | null | Partial<TaskState>>];
declare const FORMAT = 1;
export declare function packSnapshot(snapshot: TeamRunSnapshot): PackedSnapshot;
/** The snapshot a packed one was made from (a snapshot that was never packed passes through). */
export declare function unpackSnapshot(packed: PackedSnapshot | TeamRunSnapshot): TeamRunSnapshot;
export {};
