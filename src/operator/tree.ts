/**
 * A tree of teams as both doors read it (docs/teams.md, "One tree, everywhere"): a run, its `team` tasks and their
 * child runs, level by level, from each run's own state (an open run's `status` query, a closed run's result).
 * Bounded: at most `depth` levels below the run asked about and `maxChildren` children listed per run, the rest
 * counted. Read-only.
 */
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { teamRunHandle, teamRunResult } from '../client';
import type { ChildrenView, RunStats, TaskStatus } from '../contract';
import { TEAM_DEPTH_MAX } from '../plan/team';
import { pathOf } from '../team/tree-views';
import { statusQuery } from '../workflows/messages';
import { CliError } from './context';

/** Levels read below the run asked about when the caller gives none, and children listed per run. */
export const TREE_DEFAULTS = { depth: 3, maxChildren: 20 } as const;
export const TREE_LIMITS = { depth: TEAM_DEPTH_MAX, maxChildren: 200 } as const;
const QUERY_DEADLINE_MS = 15_000;

export interface TreeNode {
  workflowId: string;
  /** `root/key/key`: the workflow id without fencing tokens (a root's is its id). */
  path: string;
  /** The team task this run is the attempt of, in its parent (null for the run asked about). */
  key: string | null;
  /** That team task's status in the parent. */
  taskStatus: TaskStatus | null;
  /** The run's state (`running`, `succeeded`, ...), `workflow <how>` when it closed without a result, `not started`. */
  state: string;
  stats: RunStats | null;
  /** Its team tasks (how many in all; the listed ones are `children`, read a level further down while in depth). */
  teamTasks: number;
  children: TreeNode[];
  /** Team tasks not listed (past maxChildren, or the depth bound). */
  more: number;
  /** Why this run could not be read (no worker answered, not found), if so. */
  error?: string;
}

export interface TreeOptions {
  depth?: number;
  maxChildren?: number;
}

interface RunRead {
  state: string;
  stats: RunStats | null;
  children: ChildrenView | null;
}

/** One run's own state: its status (open) or result (closed), and its team tasks. */
async function readRun(client: Client, workflowId: string): Promise<RunRead> {
  const handle = teamRunHandle(client, workflowId);
  const description = await handle.describe();
  if (description.status.name === 'RUNNING') {
    const status = await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(statusQuery));
    return { state: status.state, stats: status.stats, children: status.children ?? null };
  }
  try {
    const result = await teamRunResult(handle);
    const team = result.tasks.filter((t) => t.child !== undefined);
    const listed = team.map((t) => ({ key: t.key, status: t.status, fencingToken: t.fencingToken, child: t.child! }));
    return {
      state: result.status,
      stats: result.stats,
      children: listed.length ? { total: listed.length, listed } : null,
    };
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    const how = description.status.name.toLowerCase().replace(/_/g, ' ');
    return { state: `workflow ${how}`, stats: null, children: null };
  }
}

const bounded = (value: number | undefined, fallback: number, max: number) =>
  Math.min(max, Math.max(0, Math.floor(value ?? fallback)));

/** The tree below `workflowId` (the run itself at its root), read level by level within the bounds. */
export async function readTree(client: Client, workflowId: string, options: TreeOptions = {}): Promise<TreeNode> {
  const depth = bounded(options.depth, TREE_DEFAULTS.depth, TREE_LIMITS.depth);
  const maxChildren = bounded(options.maxChildren, TREE_DEFAULTS.maxChildren, TREE_LIMITS.maxChildren);
  const read = async (
    id: string,
    key: string | null,
    taskStatus: TaskStatus | null,
    level: number,
  ): Promise<TreeNode> => {
    const node: TreeNode = {
      workflowId: id,
      path: pathOf(id) ?? id,
      key,
      taskStatus,
      state: 'unknown',
      stats: null,
      teamTasks: 0,
      children: [],
      more: 0,
    };
    let run: RunRead;
    try {
      run = await readRun(client, id);
    } catch (err) {
      if (level === 0 && err instanceof WorkflowNotFoundError) {
        throw new CliError(`no run with id "${id}" in namespace ${client.options.namespace}`);
      }
      node.error = (err as Error).message.slice(0, 300);
      return node;
    }
    node.state = run.state;
    node.stats = run.stats;
    node.teamTasks = run.children?.total ?? 0;
    const listed = level < depth ? (run.children?.listed ?? []).slice(0, maxChildren) : [];
    node.more = node.teamTasks - listed.length;
    node.children = await Promise.all(
      listed.map((c) =>
        c.child ? read(c.child, c.key, c.status, level + 1) : Promise.resolve(notStarted(id, c.key, c.status)),
      ),
    );
    return node;
  };
  return read(workflowId, null, null, 0);
}

function notStarted(parentId: string, key: string, status: TaskStatus): TreeNode {
  const parentPath = pathOf(parentId) ?? parentId;
  return {
    workflowId: '',
    path: `${parentPath}/${key}`,
    key,
    taskStatus: status,
    state: 'not started',
    stats: null,
    teamTasks: 0,
    children: [],
    more: 0,
  };
}

/**
 * A run by its workflow id, or by its path in a tree (`root/key/key`): each key names a team task of the run before
 * it, whose current (or last) child run is the next. An id with a fencing token (`root/key#2`) is taken as it is.
 */
export async function resolveRunId(client: Client, idOrPath: string): Promise<string> {
  if (idOrPath.includes('#') || !idOrPath.includes('/')) return idOrPath;
  // A root id may itself contain '/': the longest prefix that is a run is the root.
  const parts = idOrPath.split('/');
  for (let cut = parts.length; cut >= 1; cut--) {
    const root = parts.slice(0, cut).join('/');
    const exists = await teamRunHandle(client, root)
      .describe()
      .then(
        () => true,
        (err: unknown) => (err instanceof WorkflowNotFoundError ? false : Promise.reject(err)),
      );
    if (!exists) continue;
    let id = root;
    for (const key of parts.slice(cut)) {
      const run = await readRun(client, id);
      const child = run.children?.listed.find((c) => c.key === key);
      if (!child?.child) {
        const why = child ? 'has not started a child run yet' : 'is not a team task of it (or not among the listed)';
        throw new CliError(`path ${idOrPath}: "${key}" in run ${id} ${why}`);
      }
      id = child.child;
    }
    return id;
  }
  throw new CliError(`path ${idOrPath}: no run named by any prefix of it`);
}

/** Per level below the root: how many child runs were read, and their tasks' counts summed. */
export function levelCounts(
  root: TreeNode,
): Array<{ level: number; runs: number; teamTasks: number; stats: RunStats }> {
  const levels: Array<{ level: number; runs: number; teamTasks: number; stats: RunStats }> = [];
  const walk = (node: TreeNode, level: number) => {
    levels[level] ??= { level, runs: 0, teamTasks: 0, stats: emptyStats() };
    const entry = levels[level];
    entry.runs += node.stats ? 1 : 0;
    entry.teamTasks += node.teamTasks;
    if (node.stats) for (const k of STAT_KEYS) entry.stats[k] += node.stats[k] ?? 0;
    for (const c of node.children) walk(c, level + 1);
  };
  walk(root, 0);
  return levels;
}

const STAT_KEYS = ['total', 'succeeded', 'failed', 'skipped', 'adjudication', 'running', 'pending'] as const;
function emptyStats(): RunStats {
  return Object.fromEntries(STAT_KEYS.map((k) => [k, 0])) as unknown as RunStats;
}
