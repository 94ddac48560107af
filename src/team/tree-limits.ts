/**
 * Limits across a whole tree of teams (`budget.tree`, docs/budgets.md): `maxSpawnedTasks` counts every task added
 * in this run and in every run below it. A child team takes a share of what is left as it starts (its plan's
 * `budget.tree.maxSpawnedTasks` is at most that share), the parent holds that share while the child runs, and when
 * the child ends what its tree spawned is charged in place of the hold (all of the hold when its end is unknown).
 * So two children running at once never spawn more together than the parent had left. Pure; the workflow calls it
 * as it starts a child and as the child ends (src/workflows/child-team.ts).
 */
import type { BudgetView, RunResult } from '../contract';
import type { RunContext } from './context';

const idOf = (key: string, fencingToken: number) => `${key}#${fencingToken}`;

/**
 * The share of `budget.tree.maxSpawnedTasks` the child starting for `key`/`fencingToken` takes and holds: a fair
 * share of what is left among the team attempts in flight that hold none yet (this one included). Null without the
 * limit.
 */
export function carveTreeSpawns(run: RunContext, key: string, fencingToken: number): number | null {
  const max = run.plan.budget.tree?.maxSpawnedTasks;
  if (max === undefined) return null;
  const left = Math.max(0, max - run.spawns.treeSpawned - run.spawns.treeHeld);
  let waiting = 0;
  for (const k of run.leases.keys()) {
    const i = run.graph.indexOf(k);
    const attempt = run.leases.get(k);
    if (i === undefined || !attempt || run.spec(i).executor.kind !== 'team') continue;
    if (!run.spawns.holding(idOf(k, attempt.fencingToken))) waiting += 1;
  }
  const share = Math.floor(left / Math.max(1, waiting));
  run.spawns.hold(idOf(key, fencingToken), share);
  return share;
}

/** The child's plan with its tree limit at most `share` (a limit it does not set is the share). */
export function withTreeShare(plan: Record<string, unknown>, share: number | null): Record<string, unknown> {
  if (share === null) return plan;
  const budget = (typeof plan.budget === 'object' && plan.budget !== null ? plan.budget : {}) as Record<
    string,
    unknown
  >;
  const tree = (typeof budget.tree === 'object' && budget.tree !== null ? budget.tree : {}) as Record<string, unknown>;
  const own = typeof tree.maxSpawnedTasks === 'number' ? tree.maxSpawnedTasks : share;
  return { ...plan, budget: { ...budget, tree: { ...tree, maxSpawnedTasks: Math.min(own, share) } } };
}

/**
 * The child ended: its hold is released and what its tree spawned charged: its result's figure, 0 when it never
 * started (`started` false), its whole hold when its end is unknown.
 */
export function chargeTreeSpawns(
  run: RunContext,
  key: string,
  fencingToken: number,
  result: RunResult | null,
  started = true,
): void {
  const spawned = started ? result?.budget.tree?.spawnedTasks : 0;
  run.spawns.settleChild(idOf(key, fencingToken), typeof spawned === 'number' ? spawned : null);
}

/** The budget view with the tree's figures, where the plan sets `budget.tree`. */
export function withTree(run: RunContext, view: BudgetView): BudgetView {
  if (!run.plan.budget.tree) return view;
  return { ...view, tree: { spawnedTasks: run.spawns.treeSpawned, heldByChildren: run.spawns.treeHeld } };
}
