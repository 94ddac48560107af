/**
 * Owns the order in which ready tasks are claimed (priority, then plan order) and when two scopes
 * overlap. Pure; it never claims or leases anything itself.
 */
import type { TaskSpec } from '../plan/schema';
/**
 * Two scope lists overlap when any of theirs is the same resource, contains the other (`docs/` and `docs/api`), or is
 * the whole workspace.
 */
export declare function scopesOverlap(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean;
/**
 * Ready tasks in the order they are claimed: priority, then plan order.
 * Holds plan indices; one sorted list per priority.
 */
export declare class ReadyQueue {
    private readonly tasks;
    private readonly buckets;
    constructor(tasks: ReadonlyArray<TaskSpec>);
    add(index: number): void;
    remove(index: number): void;
    /** Plan indices in claim order; do not add or remove while iterating. */
    inOrder(): Generator<number>;
    get size(): number;
}
