/**
 * The task graph: the plan's task specs, each task's state, who depends on whom, the ready queue
 * and the count per status. Owns `tasks` in the snapshot and the status moves that follow the
 * graph (a success unblocks dependents, a failure skips them). It does not lease, charge or
 * adjudicate: the run decides those and calls in here to move a task.
 */
import type { RunStats, TasksQuery } from '../contract';
import type { TaskSpec } from '../plan/schema';
import type { EventLog } from './events';
import { ReadyQueue } from './scheduling';
import { type TaskState, type TaskStatus } from './types';
import { type TaskView } from './views';
export type { RunStats, TasksQuery };
export interface SpawnTreeEntry {
    parent: string;
    children: string[];
    total: number;
}
export declare class TaskGraph {
    readonly specs: TaskSpec[];
    readonly tasks: TaskState[];
    private readonly events;
    /** Task keys in run order (the mailbox reads it live). */
    readonly keys: string[];
    readonly ready: ReadyQueue;
    private readonly index;
    private readonly dependents;
    private readonly waitingOn;
    private readonly counts;
    private treeCache;
    /**
     * Every ready task whose `readyAt` may lie ahead (made ready again, or ready when the run was
     * restored), pruned as it is asked about: the run asks on every step when it must wake next,
     * and must not walk the whole ready queue to learn it. Others became ready at a `now` passed.
     */
    private readonly delayed;
    /** `specs` is the plan's own list: tasks added while the run runs are appended to it. */
    constructor(specs: TaskSpec[], tasks: TaskState[], events: EventLog);
    indexOf(key: string): number | undefined;
    has(key: string): boolean;
    get size(): number;
    count(status: TaskStatus): number;
    isSettled(i: number): boolean;
    setStatus(task: TaskState, status: TaskStatus): void;
    /** Back in the ready queue, claimable from `readyAt`. */
    makeReady(i: number, readyAt: number): void;
    /** True when a ready task waits out its retry backoff past `now`. */
    backingOff(now: number): boolean;
    /** The earliest `readyAt` after `now` among ready tasks, if any. */
    nextReadyAt(now: number): number | null;
    /** What task `i` receives from its dependencies; own properties even for a key such as "__proto__". */
    dependencyOutputs(i: number): Record<string, unknown>;
    /**
     * Task `i` succeeded with `output`: dependents whose last dependency it was become ready, or
     * are skipped with `notTakingWork` when the run takes no work.
     */
    succeed(i: number, output: unknown, now: number, notTakingWork: string | null): void;
    /** Task `i` failed for good: recorded, and everything that depends on it is skipped. */
    fail(i: number, reported: string, now: number, fencingToken: number): void;
    skipTask(i: number, reason: string, now: number): void;
    /** Every task that has not started (blocked or ready) is skipped. */
    skipNotStarted(reason: string, now: number): void;
    private skipDependents;
    /** Appends checked tasks, blocked, wired to their dependencies; returns the index of the first. */
    append(specs: ReadonlyArray<TaskSpec>, states: ReadonlyArray<TaskState>): number;
    /**
     * Tasks appended from `from` on become ready, or are skipped when a dependency can never
     * succeed. In run order, so one depending on an earlier new one that is skipped is skipped too.
     */
    admitAppended(from: number, now: number): void;
    private statusOf;
    view(i: number): TaskView;
    stats(): RunStats;
    tasksView(query?: TasksQuery): TaskView[];
    /**
     * Parent -> children of added tasks, parents in run order (at most `maxParents`, each with at most `maxChildren`).
     */
    spawnTree(maxParents?: number, maxChildren?: number): SpawnTreeEntry[];
}
