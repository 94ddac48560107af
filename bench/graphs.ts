import type { TeamPlanInput } from '../src/plan/schema';

type TaskInput = TeamPlanInput['tasks'][number];
type Executor = TaskInput['executor'];

const key = (i: number) => `t${String(i).padStart(5, '0')}`;

/** `n` independent tasks: the widest graph, limited only by `teammates`. */
export function flatTasks(n: number, executor: Executor = { kind: 'noop' }): TaskInput[] {
  return Array.from({ length: n }, (_, i) => ({ key: key(i), executor }));
}

/**
 * `n` tasks in layers whose widths cycle through `widths`; each task depends on up to
 * `fanIn` tasks of the layer before (a deterministic spread, so every run is the same graph).
 */
export function layeredTasks(
  n: number,
  widths: ReadonlyArray<number>,
  fanIn = 2,
  executor: Executor = { kind: 'noop' },
): TaskInput[] {
  const tasks: TaskInput[] = [];
  let previous: string[] = [];
  for (let layer = 0; tasks.length < n; layer++) {
    const width = Math.min(widths[layer % widths.length], n - tasks.length);
    const current: string[] = [];
    for (let j = 0; j < width; j++) {
      const k = key(tasks.length);
      const dependsOn: string[] = [];
      for (let f = 0; f < Math.min(fanIn, previous.length); f++) {
        const dep = previous[(j * 7 + f * 13) % previous.length];
        if (!dependsOn.includes(dep)) dependsOn.push(dep);
      }
      tasks.push(dependsOn.length ? { key: k, dependsOn, executor } : { key: k, executor });
      current.push(k);
    }
    previous = current;
  }
  return tasks;
}

/** The widths of the scale benchmark's graph: narrow waists between wide layers. */
export const MIXED_WIDTHS = [1, 16, 256, 64, 1024, 8, 512, 128, 2048, 32] as const;
