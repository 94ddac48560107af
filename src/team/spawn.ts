/**
 * Owns the record of tasks added while a run runs (`addTasks`): counts, request ids remembered
 * for idempotency, and the spawn limits. Pure; the run validates and appends the tasks.
 */
import type { SpawnLimit } from '../contract';
import type { BudgetLimits } from '../plan/schema';
import { ADD_TASKS_LIMITS } from '../plan/requests/add-tasks';
import { TreeHolds, type TreeHoldSnapshot } from './tree-holds';

export type { SpawnLimit };

/** Code of the adjudication a task goes to when what it adds on settling is over a limit. */
export const SPAWN_LIMIT_CODE = 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED';

/** Requests remembered for idempotency (newest kept); an older requestId sent again is checked anew. */
export const SPAWN_REQUESTS_KEPT = 256;

/** Keys listed in one `task:added` event; `count` says how many were added. */
export const ADDED_EVENT_KEYS = 20;

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
  /**
   * `budget.tree.maxSpawnedTasks` (team/tree-limits.ts): what each running child (`<key>#<token>`) holds of it, and
   * what ended children spawned across their trees. Absent in older snapshots.
   */
  tree?: TreeHoldSnapshot;
  /** `budget.tree.maxTurns`, held and charged the same way. Absent in older snapshots. */
  turns?: TreeHoldSnapshot;
}

export const emptySpawns = (): SpawnSnapshot => ({ added: 0, requests: [] });

/** The run's record of added work: how much, and which requests it already took (by requestId). */
export class Spawns {
  private added: number;
  private readonly requests: SpawnRequestRecord[];
  private readonly byId = new Map<string, SpawnRequestRecord>();
  /** `budget.tree.maxSpawnedTasks` (team/tree-limits.ts): what running children hold, what ended ones spawned. */
  readonly tree: TreeHolds;
  /** `budget.tree.maxTurns`: what running children hold, and what ended children's trees called the model. */
  readonly turns: TreeHolds;

  constructor(snapshot: SpawnSnapshot = emptySpawns()) {
    this.added = snapshot.added;
    this.tree = new TreeHolds(snapshot.tree);
    this.turns = new TreeHolds(snapshot.turns);
    this.requests = [...snapshot.requests];
    for (const record of this.requests) this.byId.set(record[0], record);
  }

  get count(): number {
    return this.added;
  }

  /** Tasks spawned across the tree: this run's, and what its ended children's trees spawned. */
  get treeSpawned(): number {
    return this.added + this.tree.charged;
  }

  /** What running children hold of `budget.tree.maxSpawnedTasks`. */
  get treeHeld(): number {
    return this.tree.held;
  }

  /** The run indices a request added, if it was accepted before. */
  earlier(requestId: string): { from: number; count: number } | null {
    const record = this.byId.get(requestId);
    return record ? { from: record[1], count: record[2] } : null;
  }

  /**
   * The limit `count` new tasks at `depth` would pass, with the reason a person reads; null when
   * they fit. Depth is the parent chain's length from a plan task (plan tasks are depth 0).
   */
  overLimit(
    budget: Pick<BudgetLimits, 'maxSpawnedTasks' | 'maxDepth' | 'tree'>,
    count: number,
    depth: number,
  ): { limit: SpawnLimit; message: string } | null {
    const maxSpawned = budget.maxSpawnedTasks;
    if (maxSpawned !== undefined && this.added + count > maxSpawned) {
      return {
        limit: 'max-spawned-tasks',
        message:
          `adding ${count} task(s) to the ${this.added} already added would pass budget.maxSpawnedTasks ` +
          `(${maxSpawned})`,
      };
    }
    const maxTree = budget.tree?.maxSpawnedTasks;
    const inTree = this.treeSpawned + this.treeHeld;
    if (maxTree !== undefined && inTree + count > maxTree) {
      return {
        limit: 'max-spawned-tasks',
        message:
          `adding ${count} task(s) to the ${inTree} spawned or held across the tree would pass ` +
          `budget.tree.maxSpawnedTasks (${maxTree})`,
      };
    }
    const maxDepth = Math.min(budget.maxDepth ?? ADD_TASKS_LIMITS.maxDepth, ADD_TASKS_LIMITS.maxDepth);
    if (depth > maxDepth) {
      return {
        limit: 'max-depth',
        message: `the new tasks would be at depth ${depth}, past budget.maxDepth (${maxDepth})`,
      };
    }
    return null;
  }

  /** Records an accepted request whose `count` tasks start at run index `from`. */
  record(requestId: string, from: number, count: number): void {
    const record: SpawnRequestRecord = [requestId, from, count];
    this.added += count;
    this.requests.push(record);
    this.byId.set(requestId, record);
    while (this.requests.length > SPAWN_REQUESTS_KEPT) this.byId.delete(this.requests.shift()![0]);
  }

  snapshot(): SpawnSnapshot {
    const tree = this.tree.snapshot();
    const turns = this.turns.snapshot();
    return {
      added: this.added,
      requests: this.requests.map((r) => [...r] as SpawnRequestRecord),
      ...(tree ? { tree } : {}),
      ...(turns ? { turns } : {}),
    };
  }
}
