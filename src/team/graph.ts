/**
 * The task graph: the plan's task specs, each task's state, who depends on whom, the ready queue
 * and the count per status. Owns `tasks` in the snapshot and the status moves that follow the
 * graph (a success unblocks dependents, a failure skips them). It does not lease, charge or
 * adjudicate: the run decides those and calls in here to move a task.
 */
import type { RunStats, TasksQuery } from '../contract';
import type { TaskSpec } from '../plan/schema';
import { RUN_LIMITS, clip } from './bounds';
import type { EventLog } from './events';
import { ReadyQueue } from './scheduling';
import { TASK_STATUSES, type TaskState, type TaskStatus } from './types';
import { taskView, type TaskView } from './views';

export type { RunStats, TasksQuery };

export interface SpawnTreeEntry {
  parent: string;
  children: string[];
  total: number;
}

export class TaskGraph {
  /** Task keys in run order (the mailbox reads it live). */
  readonly keys: string[];
  readonly ready: ReadyQueue;
  private readonly index = new Map<string, number>();
  private readonly dependents: number[][];
  private readonly waitingOn: number[];
  private readonly counts = new Map<TaskStatus, number>();
  private treeCache: { key: string; tree: SpawnTreeEntry[] } | null = null;
  /** The run's workflow id: a `team` task's view names its child run by it (set by RunContext). */
  runId: string | undefined;
  /**
   * Every ready task whose `readyAt` may lie ahead (made ready again, or ready when the run was
   * restored), pruned as it is asked about: the run asks on every step when it must wake next,
   * and must not walk the whole ready queue to learn it. Others became ready at a `now` passed.
   */
  private readonly delayed = new Set<number>();
  /** Tasks the last claim step noted as waiting (`waiting`: why they were not claimed), so views need not walk all. */
  private readonly noted = new Set<number>();

  /** `specs` is the plan's own list: tasks added while the run runs are appended to it. */
  constructor(
    readonly specs: TaskSpec[],
    readonly tasks: TaskState[],
    private readonly events: EventLog,
  ) {
    this.ready = new ReadyQueue(specs);
    this.dependents = specs.map(() => []);
    this.waitingOn = specs.map(() => 0);
    for (const status of TASK_STATUSES) this.counts.set(status, 0);
    specs.forEach((spec, i) => this.index.set(spec.key, i));
    this.keys = specs.map((spec) => spec.key);
    specs.forEach((spec, i) => {
      for (const dep of spec.dependsOn) {
        const d = this.index.get(dep);
        if (d === undefined) continue;
        this.dependents[d].push(i);
        if (tasks[d].status !== 'succeeded') this.waitingOn[i] += 1;
      }
    });
    tasks.forEach((task, i) => {
      if (task.waiting !== undefined) this.noted.add(i);
      this.counts.set(task.status, (this.counts.get(task.status) ?? 0) + 1);
      if (task.status === 'ready') {
        this.ready.add(i);
        this.delayed.add(i);
      }
    });
  }

  indexOf(key: string): number | undefined {
    return this.index.get(key);
  }

  /** Ready task `i` was not claimed, and says why (`waiting for budget: …`) until the next claim step. */
  noteWaiting(i: number, why: string): void {
    this.tasks[i].waiting = why;
    this.noted.add(i);
  }

  /** A claim step begins: every note of the last one is forgotten. */
  clearWaiting(): void {
    for (const i of this.noted) delete this.tasks[i].waiting;
    this.noted.clear();
  }

  /** Ready tasks that wait with a note: the first `limit` in plan order, and how many in all. */
  waitingTasks(limit: number): { first: number[]; total: number } {
    const first: number[] = [];
    let total = 0;
    for (const i of this.noted) {
      if (this.tasks[i].status !== 'ready' || this.tasks[i].waiting === undefined) continue;
      total += 1;
      if (first.length < limit || i < first[first.length - 1]) {
        first.push(i);
        first.sort((a, b) => a - b);
        if (first.length > limit) first.pop();
      }
    }
    return { first, total };
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  get size(): number {
    return this.tasks.length;
  }

  count(status: TaskStatus): number {
    return this.counts.get(status) ?? 0;
  }

  isSettled(i: number): boolean {
    return ['succeeded', 'failed', 'skipped'].includes(this.tasks[i].status);
  }

  setStatus(task: TaskState, status: TaskStatus): void {
    this.counts.set(task.status, (this.counts.get(task.status) ?? 0) - 1);
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    task.status = status;
  }

  /** Back in the ready queue, claimable from `readyAt`. */
  makeReady(i: number, readyAt: number): void {
    this.tasks[i].readyAt = readyAt;
    this.setStatus(this.tasks[i], 'ready');
    this.ready.add(i);
    this.delayed.add(i);
  }

  /** True when a ready task waits out its retry backoff past `now`. */
  backingOff(now: number): boolean {
    return this.nextReadyAt(now) !== null;
  }

  /** The earliest `readyAt` after `now` among ready tasks, if any. */
  nextReadyAt(now: number): number | null {
    let wake: number | null = null;
    for (const i of this.delayed) {
      const task = this.tasks[i];
      // Claimed, settled or past its backoff: it wakes nothing again unless made ready again.
      if (task.status !== 'ready' || task.readyAt <= now) {
        this.delayed.delete(i);
        continue;
      }
      if (wake === null || task.readyAt < wake) wake = task.readyAt;
    }
    return wake;
  }

  /** What task `i` receives from its dependencies; own properties even for a key such as "__proto__". */
  dependencyOutputs(i: number): Record<string, unknown> {
    return Object.fromEntries(
      this.specs[i].dependsOn.map((dep) => [dep, this.tasks[this.index.get(dep)!].output ?? null]),
    );
  }

  /**
   * Task `i` succeeded with `output`: dependents whose last dependency it was become ready, or
   * are skipped with `notTakingWork` when the run takes no work.
   */
  succeed(i: number, output: unknown, now: number, notTakingWork: string | null): void {
    const task = this.tasks[i];
    task.output = output;
    task.lastError = null;
    task.settledAt = now;
    this.setStatus(task, 'succeeded');
    for (const d of this.dependents[i]) {
      this.waitingOn[d] -= 1;
      const dependent = this.tasks[d];
      if (this.waitingOn[d] === 0 && dependent.status === 'blocked') {
        dependent.readyAt = now;
        this.setStatus(dependent, 'ready');
        if (notTakingWork === null) this.ready.add(d);
        else this.skipTask(d, notTakingWork, now);
      }
    }
  }

  /** Task `i` failed for good: recorded, and everything that depends on it is skipped. */
  fail(i: number, reported: string, now: number, fencingToken: number): void {
    const task = this.tasks[i];
    const message = clip(reported, RUN_LIMITS.errorChars);
    task.lastError = message;
    task.settledAt = now;
    this.setStatus(task, 'failed');
    this.events.record('task:failed', now, { key: task.key, fencingToken, error: message, willRetry: false });
    this.skipDependents(i, `dependency "${task.key}" failed`, now);
  }

  /**
   * Settled task `i` goes back to a person (`reopenTask`): a succeeded one's dependents count it as not done again
   * (one that was ready but not claimed waits again). Returns its dependents, direct and further, that already
   * ran (an attempt started, or settled other than skipped), in plan order; nothing of theirs changes.
   */
  reopen(i: number): string[] {
    if (this.tasks[i].status === 'succeeded') {
      for (const d of this.dependents[i]) {
        this.waitingOn[d] += 1;
        if (this.tasks[d].status !== 'ready') continue;
        this.ready.remove(d);
        this.setStatus(this.tasks[d], 'blocked');
      }
    }
    const seen = new Set<number>();
    const stack = [...this.dependents[i]];
    while (stack.length) {
      const d = stack.pop()!;
      if (seen.has(d)) continue;
      seen.add(d);
      stack.push(...this.dependents[d]);
    }
    const ran = (t: TaskState) => t.attempts > 0 || t.status === 'succeeded' || t.status === 'failed';
    return [...seen]
      .filter((d) => ran(this.tasks[d]))
      .sort((a, b) => a - b)
      .map((d) => this.tasks[d].key);
  }

  skipTask(i: number, reason: string, now: number): void {
    const task = this.tasks[i];
    if (task.status === 'ready') this.ready.remove(i);
    task.skipReason = reason;
    task.settledAt = now;
    this.setStatus(task, 'skipped');
    this.events.record('task:skipped', now, { key: task.key, reason });
  }

  /** Every task that has not started (blocked or ready) is skipped. */
  skipNotStarted(reason: string, now: number): void {
    this.tasks.forEach((task, i) => {
      if (task.status === 'blocked' || task.status === 'ready') this.skipTask(i, reason, now);
    });
  }

  private skipDependents(i: number, reason: string, now: number): void {
    const stack = [...this.dependents[i]];
    while (stack.length) {
      const d = stack.pop()!;
      const status = this.tasks[d].status;
      if (status !== 'blocked' && status !== 'ready') continue;
      this.skipTask(d, reason, now);
      stack.push(...this.dependents[d]);
    }
  }

  /** Appends checked tasks, blocked, wired to their dependencies; returns the index of the first. */
  append(specs: ReadonlyArray<TaskSpec>, states: ReadonlyArray<TaskState>): number {
    const from = this.tasks.length;
    specs.forEach((spec, n) => {
      const i = this.specs.push(spec) - 1;
      this.tasks.push(states[n]);
      this.counts.set('blocked', (this.counts.get('blocked') ?? 0) + 1);
      this.index.set(spec.key, i);
      this.keys.push(spec.key);
      this.dependents.push([]);
      this.waitingOn.push(0);
    });
    for (let i = from; i < this.tasks.length; i++) {
      for (const dep of this.specs[i].dependsOn) {
        const d = this.index.get(dep)!;
        this.dependents[d].push(i);
        if (this.tasks[d].status !== 'succeeded') this.waitingOn[i] += 1;
      }
    }
    return from;
  }

  /**
   * Tasks appended from `from` on become ready, or are skipped when a dependency can never
   * succeed. In run order, so one depending on an earlier new one that is skipped is skipped too.
   */
  admitAppended(from: number, now: number): void {
    for (let i = from; i < this.tasks.length; i++) {
      const failedDep = this.specs[i].dependsOn.find((dep) => ['failed', 'skipped'].includes(this.statusOf(dep)));
      if (failedDep !== undefined) this.skipTask(i, `dependency "${failedDep}" ${this.statusOf(failedDep)}`, now);
      else if (this.waitingOn[i] === 0) {
        this.setStatus(this.tasks[i], 'ready');
        this.ready.add(i);
      }
    }
  }

  private statusOf(key: string): TaskStatus {
    return this.tasks[this.index.get(key)!].status;
  }

  // ---- views ------------------------------------------------------------------------------

  view(i: number): TaskView {
    return taskView(this.tasks[i], this.specs[i], this.runId);
  }

  stats(): RunStats {
    const n = (s: TaskStatus) => this.count(s);
    return {
      total: this.tasks.length,
      succeeded: n('succeeded'),
      failed: n('failed'),
      skipped: n('skipped'),
      adjudication: n('adjudication'),
      running: n('leased'),
      pending: n('blocked') + n('ready'),
    };
  }

  tasksView(query: TasksQuery = {}): TaskView[] {
    const offset = Math.max(0, query.offset ?? 0);
    const limit = Math.max(0, query.limit ?? 1_000);
    const out: TaskView[] = [];
    let skipped = 0;
    for (let i = 0; i < this.tasks.length && out.length < limit; i++) {
      if (query.status && this.tasks[i].status !== query.status) continue;
      if (skipped++ < offset) continue;
      out.push(this.view(i));
    }
    return out;
  }

  /**
   * Parent -> children of added tasks, parents in run order (at most `maxParents`, each with at most `maxChildren`).
   */
  spawnTree(maxParents = 20, maxChildren = 20): SpawnTreeEntry[] {
    // The tree changes only when tasks are added: the Web UI's details ask on every step.
    const cacheKey = `${this.tasks.length}/${maxParents}/${maxChildren}`;
    if (this.treeCache?.key === cacheKey) return this.treeCache.tree;
    const byParent = new Map<string, SpawnTreeEntry>();
    for (const task of this.tasks) {
      if (task.parent === undefined) continue;
      let entry = byParent.get(task.parent);
      if (!entry) {
        if (byParent.size >= maxParents) continue;
        entry = { parent: task.parent, children: [], total: 0 };
        byParent.set(task.parent, entry);
      }
      entry.total += 1;
      if (entry.children.length < maxChildren) entry.children.push(task.key);
    }
    this.treeCache = { key: cacheKey, tree: [...byParent.values()] };
    return this.treeCache.tree;
  }
}
