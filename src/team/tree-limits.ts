/**
 * Limits across a whole tree of teams (`budget.tree`, docs/budgets.md): `maxSpawnedTasks` counts every task added
 * in this run and in every run below it, `maxTurns` every agent model call made in them. For each, a child team
 * takes a share of what is left as it starts (its plan's `budget.tree` limit is at most that share), the parent
 * holds that share while the child runs, and when the child ends what its tree used is charged in place of the hold
 * (all of the hold when its end is unknown). So two children running at once never use more together than the
 * parent had left. Pure; the workflow calls it as it starts a child and as the child ends
 * (src/workflows/child-team.ts), and the run as it admits a model call (team/extensions.ts).
 */
import { ledgerCountsTurns } from './ledger-tree';
import type { BudgetView, RunResult } from '../contract';
import type { RunContext } from './context';

const idOf = (key: string, fencingToken: number) => `${key}#${fencingToken}`;

/**
 * Since this patch a child team's `maxTasks` is a share of its parent's that the parent holds while the child runs,
 * and the attempts the child's tree made are charged to the parent when it ends (docs/teams.md). Before, each child
 * was given all the parent had left and the parent counted the team task as one attempt.
 */
export const CHILD_TASKS_PATCH = 'teamrun-child-tasks';
/**
 * Runs recorded before a parent held at most its child plan's own limit (`maxTasks`, `budget.tree.*`) held the whole
 * share, which the child could never use: its siblings waited for the difference until it ended.
 */
export const CHILD_OWN_HOLDS = 'teamrun-child-own-holds';

/** The tree limits a child's start carves, each with the figure the child's result reports of it. */
const TREE_LIMITS = [
  { limit: 'maxSpawnedTasks', reported: 'spawnedTasks', holds: (run: RunContext) => run.spawns.tree },
  { limit: 'maxTurns', reported: 'turns', holds: (run: RunContext) => run.spawns.turns },
] as const;

type TreeLimit = (typeof TREE_LIMITS)[number]['limit'];

/** Each tree limit's share a starting child takes; absent where the plan sets no such limit. */
export type TreeShares = Partial<Record<TreeLimit, number>>;

/** What this run's tree used of a limit: its own, and what its ended children's trees used. */
function usedOf(run: RunContext, limit: TreeLimit): number {
  return limit === 'maxTurns' ? run.budget.turns + run.spawns.turns.charged : run.spawns.treeSpawned;
}

/**
 * The shares of `budget.tree` the child starting for `key`/`fencingToken` takes and holds: for each limit, a fair
 * share of what is left among the team attempts in flight that hold none of it yet (this one included). Null
 * without `budget.tree` limits.
 */
export function carveTree(run: RunContext, key: string, fencingToken: number): TreeShares | null {
  const tree = run.plan.budget.tree;
  let shares: TreeShares | undefined;
  for (const { limit, holds } of TREE_LIMITS) {
    const max = tree?.[limit];
    if (max === undefined) continue;
    const left = Math.max(0, max - usedOf(run, limit) - holds(run).held);
    const waiting = waitingChildren(run, (id) => holds(run).holding(id));
    const share = Math.min(Math.floor(left / Math.max(1, waiting)), ownLimit(run, key, limit));
    holds(run).hold(idOf(key, fencingToken), share);
    shares = { ...shares, [limit]: share };
  }
  return shares ?? null;
}

/** Team attempts in flight that hold no share yet (`holding` says whether the attempt `<key>#<token>` holds one). */
function waitingChildren(run: RunContext, holding: (id: string) => boolean): number {
  let waiting = 0;
  for (const k of run.leases.keys()) {
    const i = run.graph.indexOf(k);
    const attempt = run.leases.get(k);
    if (i === undefined || !attempt || run.spec(i).executor.kind !== 'team') continue;
    if (!holding(idOf(k, attempt.fencingToken))) waiting += 1;
  }
  return waiting;
}

/** Whether the run's `maxTasks` is shared with its child teams (set, and the run recorded since the patch). */
function sharesTasks(run: RunContext): boolean {
  return run.budget.limits.maxTasks !== undefined && run.patched(CHILD_TASKS_PATCH);
}

/**
 * The share of `maxTasks` the child starting for `key`/`fencingToken` takes and the parent holds while it runs: what
 * is left, shared among the team attempts in flight that hold none yet (this one included). Null where the run
 * has no `maxTasks` or was recorded before the patch (the child is then given all that is left, as before).
 */
export function carveTasks(run: RunContext, key: string, fencingToken: number): number | null {
  const max = run.budget.limits.maxTasks;
  if (max === undefined || !sharesTasks(run)) return null;
  const left = Math.max(0, max - run.budget.tasksUsed - run.budget.tasksHeld);
  const waiting = waitingChildren(run, (id) => run.budget.childTasks.holding(id));
  const share = Math.min(Math.floor(left / Math.max(1, waiting)), ownLimit(run, key, 'maxTasks'));
  run.budget.childTasks.hold(idOf(key, fencingToken), share);
  return share;
}

/**
 * The attempts of `maxTasks` this run grants its child team of `key`/`fencingToken`, which asked for `ask` more:
 * as many as it has left (at least one), never past the child plan's own `maxTasks`, held for that child beside its
 * share. Throws why not, as the refusal's message.
 */
export function grantTasks(run: RunContext, key: string, fencingToken: number, ask: number): number {
  const i = run.graph.indexOf(key);
  const own = i === undefined ? undefined : ownPlanLimit(run.spec(i).executor, 'maxTasks');
  if (run.budget.limits.maxTasks === undefined) {
    // The child's only limit is its plan's own: nothing to grant past it.
    if (own !== undefined) throw new Error(`the child's plan sets its own maxTasks ${own}`);
    return ask;
  }
  if (!sharesTasks(run))
    throw new Error(`this run was recorded before it shared maxTasks with its children: it grants them none`);
  const held = run.budget.childTasks.heldBy(idOf(key, fencingToken));
  const room = own === undefined ? Infinity : own - held;
  if (room < 1) throw new Error(`the child's plan sets its own maxTasks ${own}, and it holds ${held}`);
  const left = run.budget.tasksLeft;
  if (left < 1)
    throw new Error(
      `maxTasks ${run.budget.limits.maxTasks}: ${run.budget.tasksUsed} attempts made and ${run.budget.tasksHeld} ` +
        'held by running child teams, none left',
    );
  const granted = Math.min(ask, left, room);
  run.budget.childTasks.add(idOf(key, fencingToken), granted);
  return granted;
}

/**
 * The most a child of the team task `key` can use of `limit`: its plan's own (`maxTasks`, or `budget.tree.<limit>`),
 * where it sets one and the run was recorded since the parent holds no more than that; else no bound.
 */
function ownLimit(run: RunContext, key: string, limit: 'maxTasks' | TreeLimit): number {
  const i = run.graph.indexOf(key);
  if (i === undefined || !run.patched(CHILD_OWN_HOLDS)) return Infinity;
  return ownPlanLimit(run.spec(i).executor, limit) ?? Infinity;
}

/** A team task's plan's own `maxTasks` (or `budget.tree.<limit>`), where it sets one. */
function ownPlanLimit(executor: { [field: string]: unknown }, limit: 'maxTasks' | TreeLimit): number | undefined {
  const budget = (executor.plan as { budget?: { maxTasks?: unknown; tree?: Record<string, unknown> } } | undefined)
    ?.budget;
  const own = limit === 'maxTasks' ? budget?.maxTasks : budget?.tree?.[limit];
  return typeof own === 'number' ? own : undefined;
}

/** What this run lacks of `ask` more attempts of `maxTasks` (0 without the limit): what it asks its own parent for. */
export function tasksLack(run: RunContext, ask: number): number {
  return run.budget.stopped || run.budget.limits.maxTasks === undefined ? 0 : Math.max(0, ask - run.budget.tasksLeft);
}

/**
 * Why a team task cannot be claimed now: its child would get no attempt of `maxTasks` once the claim itself and one
 * attempt for each team attempt already waiting for its share are counted. Null when it may be claimed.
 */
export function childTasksRefusal(run: RunContext, i: number): string | null {
  const max = run.budget.limits.maxTasks;
  if (max === undefined || run.spec(i).executor.kind !== 'team' || !sharesTasks(run)) return null;
  const used = run.budget.tasksUsed;
  const held = run.budget.tasksHeld;
  const waiting = waitingChildren(run, (id) => run.budget.childTasks.holding(id));
  if (used + held + waiting + 2 <= max) return null;
  return (
    `waiting for budget: maxTasks ${max}: ${used} attempts made, ${held} held by running child teams` +
    (waiting ? `, ${waiting} for child teams starting` : '') +
    '; a team task needs 2 (its own and one for its child)'
  );
}

/** The child's plan with each tree limit at most its share (a limit it does not set is the share). */
export function withTreeShare(plan: Record<string, unknown>, shares: TreeShares | null): Record<string, unknown> {
  if (shares === null) return plan;
  const budget = (typeof plan.budget === 'object' && plan.budget !== null ? plan.budget : {}) as Record<
    string,
    unknown
  >;
  const tree = {
    ...((typeof budget.tree === 'object' && budget.tree !== null ? budget.tree : {}) as object),
  } as Record<string, unknown>;
  for (const [limit, share] of Object.entries(shares)) {
    const own = typeof tree[limit] === 'number' ? (tree[limit] as number) : share;
    tree[limit] = Math.min(own, share);
  }
  return { ...plan, budget: { ...budget, tree } };
}

/**
 * The child ended: its holds are released and what its tree used charged: its result's figures, 0 when it never
 * started (`started` false), its whole hold when its end (or the figure) is unknown. Its share of `maxTasks` is
 * charged as the attempts its run counted (its own and its children's trees').
 */
export function chargeTree(
  run: RunContext,
  key: string,
  fencingToken: number,
  result: RunResult | null,
  started = true,
): void {
  for (const { reported, holds } of TREE_LIMITS) {
    const used = started ? result?.budget.tree?.[reported] : 0;
    holds(run).settle(idOf(key, fencingToken), typeof used === 'number' ? used : null);
  }
  const tasks = started ? result?.budget.used.tasks : 0;
  run.budget.settleTasks(idOf(key, fencingToken), typeof tasks === 'number' ? tasks : null);
}

/**
 * Why `count` more model calls would pass `budget.maxTurns` or `budget.tree.maxTurns` (what this run and its ended
 * children's trees called, and what its running children hold); null when they fit.
 */
export function turnsRefusal(run: RunContext, count: number): string | null {
  const own = run.budget.limits.maxTurns;
  if (run.budget.overTurns(count))
    return `${run.budget.turns} model calls made, ${count} more would pass budget.maxTurns (${own})`;
  const max = run.plan.budget.tree?.maxTurns;
  const inTree = usedOf(run, 'maxTurns') + run.spawns.turns.held;
  if (max !== undefined && inTree + count > max)
    return `${inTree} model calls made or held across the tree, ${count} more would pass budget.tree.maxTurns (${max})`;
  return null;
}

/** Whether the run counts model calls: it has a turn limit of its own, across its tree, or on its ledger. */
export function countsTurns(run: RunContext): boolean {
  return (
    run.budget.limits.maxTurns !== undefined || run.plan.budget.tree?.maxTurns !== undefined || ledgerCountsTurns(run)
  );
}

/**
 * The budget view with the tree's figures, where the plan sets `budget.tree`: the turns only with
 * `budget.tree.maxTurns` (without it no child's turns are charged here, so the tree's would not be known).
 */
export function withTree(run: RunContext, view: BudgetView): BudgetView {
  const tree = run.plan.budget.tree;
  if (!tree) return view;
  const turns =
    tree.maxTurns === undefined ? {} : { turns: usedOf(run, 'maxTurns'), turnsHeldByChildren: run.spawns.turns.held };
  return { ...view, tree: { spawnedTasks: run.spawns.treeSpawned, heldByChildren: run.spawns.treeHeld, ...turns } };
}
