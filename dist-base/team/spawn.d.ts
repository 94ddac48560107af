/**
 * Owns the record of tasks added while a run runs (`addTasks`): counts, request ids remembered
 * for idempotency, and the spawn limits. Pure; the run validates and appends the tasks.
 */
import type { SpawnLimit } from '../contract';
import type { BudgetLimits } from '../plan/schema';
export type { SpawnLimit };
/** Code of the adjudication a task goes to when what it adds on settling is over a limit. */
export declare const SPAWN_LIMIT_CODE = "TEAM_TASK_SPAWN_LIMIT_EXCEEDED";
/** Requests remembered for idempotency (newest kept); an older requestId sent again is checked anew. */
export declare const SPAWN_REQUESTS_KEPT = 256;
/** Keys listed in one `task:added` event; `count` says how many were added. */
export declare const ADDED_EVENT_KEYS = 20;
/**
 * `[requestId, from, count]`: an accepted request and the tasks it added, as the run index of the
 * first one and how many (a request's tasks are appended together, so its keys are read back from
 * the run instead of being stored twice).
 */
export type SpawnRequestRecord = [string, number, number];
export interface SpawnSnapshot {
    /** Tasks added during the run, in all (what `budget.maxSpawnedTasks` bounds). */
    added: number;
    requests: SpawnRequestRecord[];
}
export declare const emptySpawns: () => SpawnSnapshot;
/** The run's record of added work: how much, and which requests it already took (by requestId). */
export declare class Spawns {
    private added;
    private readonly requests;
    private readonly byId;
    constructor(snapshot?: SpawnSnapshot);
    get count(): number;
    /** The run indices a request added, if it was accepted before. */
    earlier(requestId: string): {
        from: number;
        count: number;
    } | null;
    /**
     * The limit `count` new tasks at `depth` would pass, with the reason a person reads; null when
     * they fit. Depth is the parent chain's length from a plan task (plan tasks are depth 0).
     */
    overLimit(budget: Pick<BudgetLimits, 'maxSpawnedTasks' | 'maxDepth'>, count: number, depth: number): {
        limit: SpawnLimit;
        message: string;
    } | null;
    /** Records an accepted request whose `count` tasks start at run index `from`. */
    record(requestId: string, from: number, count: number): void;
    snapshot(): SpawnSnapshot;
}
