interface Node {
  key: string;
  dependsOn: string[];
}

/**
 * Returns one dependency cycle as a path that starts and ends on the same key
 * (`a -> b -> a`), or null. Iterative, so a 20,000-task chain cannot overflow the stack.
 */
export function findCycle(tasks: ReadonlyArray<Node>): string[] | null {
  const deps = new Map(tasks.map((t) => [t.key, t.dependsOn] as const));
  const state = new Map<string, 'open' | 'done'>();
  for (const root of deps.keys()) {
    if (state.has(root)) continue;
    const stack: Array<{ key: string; next: number }> = [{ key: root, next: 0 }];
    state.set(root, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1];
      const children = deps.get(top.key) ?? [];
      if (top.next >= children.length) {
        state.set(top.key, 'done');
        stack.pop();
        continue;
      }
      const child = children[top.next++];
      const s = state.get(child);
      if (s === 'open') {
        const from = stack.findIndex((f) => f.key === child);
        return [...stack.slice(from).map((f) => f.key), child];
      }
      if (s === undefined && deps.has(child)) {
        state.set(child, 'open');
        stack.push({ key: child, next: 0 });
      }
    }
  }
  return null;
}

/** A cycle path for a message: a long one keeps its ends and says how many keys it leaves out. */
export function formatCycle(cycle: ReadonlyArray<string>, maxKeys = 12): string {
  if (cycle.length <= maxKeys) return cycle.join(' -> ');
  const head = cycle.slice(0, Math.ceil(maxKeys / 2));
  const tail = cycle.slice(cycle.length - Math.floor(maxKeys / 2));
  return [...head, `(${cycle.length - head.length - tail.length} more)`, ...tail].join(' -> ');
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** The closest known key to a misspelt one, if it is close enough to be a likely typo. */
export function nearest(word: string, candidates: ReadonlyArray<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - word.length) >= bestDistance) continue;
    const d = editDistance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
