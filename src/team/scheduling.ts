/**
 * Owns the order in which ready tasks are claimed (priority, then plan order) and when two scopes
 * overlap. Pure; it never claims or leases anything itself.
 */
import type { TaskSpec } from '../plan/schema';
import { normalizeScope, scopeOverlaps } from '../plan/scope';

const PRIORITY_ORDER = { high: 0, normal: 1, low: 2 } as const;

/** A scope as validation normalised it; one from an older snapshot may not have been. */
const normalized = (scope: string) => {
  const check = normalizeScope(scope);
  return check.ok ? check.scope : scope;
};

/**
 * Two scope lists overlap when any of theirs is the same resource, contains the other (`docs/` and `docs/api`), or is
 * the whole workspace.
 */
export function scopesOverlap(a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean {
  for (const x of a.map(normalized)) {
    for (const y of b.map(normalized)) {
      if (scopeOverlaps(x, y)) return true;
    }
  }
  return false;
}

/**
 * Ready tasks in the order they are claimed: priority, then plan order.
 * Holds plan indices; one sorted list per priority.
 */
export class ReadyQueue {
  private readonly buckets: number[][] = [[], [], []];

  constructor(private readonly tasks: ReadonlyArray<TaskSpec>) {}

  add(index: number): void {
    const bucket = this.buckets[PRIORITY_ORDER[this.tasks[index].priority]];
    let lo = 0;
    let hi = bucket.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bucket[mid] < index) lo = mid + 1;
      else hi = mid;
    }
    if (bucket[lo] !== index) bucket.splice(lo, 0, index);
  }

  remove(index: number): void {
    const bucket = this.buckets[PRIORITY_ORDER[this.tasks[index].priority]];
    const at = bucket.indexOf(index);
    if (at >= 0) bucket.splice(at, 1);
  }

  /** Plan indices in claim order; do not add or remove while iterating. */
  *inOrder(): Generator<number> {
    for (const bucket of this.buckets) {
      for (let i = 0; i < bucket.length; i++) yield bucket[i];
    }
  }

  get size(): number {
    return this.buckets[0].length + this.buckets[1].length + this.buckets[2].length;
  }
}
