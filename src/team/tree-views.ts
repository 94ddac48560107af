/**
 * A run's place in a tree of teams, as its views show it (docs/teams.md, "One tree, everywhere"): its path, and its
 * `team` tasks with their child runs. Pure, read-only; the readers that walk the tree are src/operator/tree.ts's.
 */
import type { ChildrenView } from '../contract';
import type { RunContext } from './context';

/** The most team tasks a status view lists; the rest are counted (`children.total`). */
export const CHILDREN_LISTED = 50;

/**
 * A run's path in its tree: its workflow id without the fencing tokens (`release-42/backend#1/api#2` ->
 * `release-42/backend/api`). Null for a root (an id with no `/<key>#<token>` part).
 */
export function pathOf(workflowId: string): string | null {
  if (!/\/[^/]+#\d+(\/|$)/.test(workflowId)) return null;
  return workflowId.replace(/#\d+(?=\/|$)/g, '');
}

/** A run's `team` tasks, the first CHILDREN_LISTED with their child runs; null when it has none. */
export function childrenView(run: RunContext, teamIndexes: readonly number[]): ChildrenView | null {
  if (teamIndexes.length === 0) return null;
  const listed = teamIndexes.slice(0, CHILDREN_LISTED).map((i) => {
    const view = run.graph.view(i);
    return { key: view.key, status: view.status, fencingToken: view.fencingToken, child: view.child ?? null };
  });
  return { total: teamIndexes.length, listed };
}

/** Where a run's `team` tasks are: fixed once it starts, since a running run cannot add one (`team_not_addable`). */
export function teamIndexesOf(run: RunContext): number[] {
  const out: number[] = [];
  run.graph.specs.forEach((spec, i) => {
    if (spec.executor.kind === 'team') out.push(i);
  });
  return out;
}
