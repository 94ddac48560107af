import { teamRunHandle, teamRunResult } from '../src/client';
import type { RunResult } from '../src/contract';
import { WORKFLOW_TYPE, statusQuery } from '../src/workflows/messages';
import { sleep, spawnWorker, type BenchEnv } from './env';
import { SPAWN_MAX, executionsOf, firstStart, treePlan, type TreeShape } from './tree';

/**
 * Benchmark (12), `--kill-halfway`: the tree of `measureTreeShape` with its only worker killed with SIGKILL once half
 * of its noop tasks have succeeded (summed over the children's status), and a new worker started on the same queue
 * (issue 40: nothing lost). Every child's result is read: how many noop tasks succeeded, how many tasks took another
 * attempt, how many leases expired. And every child's whole history (each execution of its continue-as-new chain) is read for how many of
 * its task attempts completed, by task key: a task that settled twice would have two completed attempts (an attempt
 * cut by the kill never completes; a stale one is refused by its fencing token). The root's history is read the
 * same way for its children: one completed child per team task.
 */
export interface KilledTreeSample {
  shape: TreeShape;
  wallMs: number;
  /** From the kill to the new worker's first poll (it prints "ready"). */
  restartMs: number;
  /** Team tasks that had succeeded when the worker was killed. */
  childrenDoneAtKill: number;
  /** Noop tasks that had succeeded when the worker was killed (at least half of them). */
  tasksDoneAtKill: number;
  status: string;
  /** Noop tasks that succeeded across every child, and those in any other state. */
  succeeded: number;
  notSucceeded: number;
  /** Tasks (spawners included) that needed more than one attempt: those whose attempt the kill cut. */
  retried: number;
  /** Leases that expired in the children: an attempt the dead worker held stopped heartbeating. */
  leasesExpired: number;
  /** Task attempts (`runTask`, or `adoptAttempt` after a hand-over) the histories record as completed, in all. */
  completedAttempts: number;
  /** Tasks with no completed attempt in the histories, and tasks with more than one (settled twice). */
  neverCompleted: number;
  completedTwice: number;
  /** Team tasks whose child the root's history records as completed more than once, or never. */
  childrenCompletedTwice: number;
  childrenNeverCompleted: number;
}

/** Noop tasks succeeded so far across the root's children (each child's status), and children succeeded. */
async function tasksSucceeded(env: BenchEnv, rootId: string, spawnersPerChild: number) {
  let tasksDone = 0;
  let childrenDone = 0;
  for (const task of await teamRunHandle(env.client, rootId).tasks({ offset: 0, limit: 1_000 })) {
    if (task.status === 'succeeded') childrenDone += 1;
    if (!task.child) continue;
    const stats = (await teamRunHandle(env.client, task.child).query(statusQuery)).stats;
    tasksDone += Math.max(0, stats.succeeded - spawnersPerChild);
  }
  return { tasksDone, childrenDone };
}

/** Completed task attempts of a workflow id's whole chain, by task key (`<key>#<token>` activity ids). */
async function completionsByKey(env: BenchEnv, workflowId: string): Promise<Map<string, number>> {
  const byKey = new Map<string, number>();
  for await (const { history } of executionsOf(env.client, workflowId)) {
    const scheduled = new Map<string, string>();
    for (const event of history.events ?? []) {
      const attrs = event.activityTaskScheduledEventAttributes;
      const type = attrs?.activityType?.name;
      if (attrs && (type === 'runTask' || type === 'adoptAttempt')) {
        const id = attrs.activityId ?? '';
        scheduled.set(String(event.eventId), id.slice(0, id.lastIndexOf('#')));
      }
      const key = scheduled.get(String(event.activityTaskCompletedEventAttributes?.scheduledEventId));
      if (key !== undefined) byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
  }
  return byKey;
}

/** Completed child workflows of a workflow id's chain, by child workflow id without its `#<token>`. */
async function childCompletions(env: BenchEnv, workflowId: string): Promise<Map<string, number>> {
  const byTask = new Map<string, number>();
  for await (const { history } of executionsOf(env.client, workflowId)) {
    for (const event of history.events ?? []) {
      const id = event.childWorkflowExecutionCompletedEventAttributes?.workflowExecution?.workflowId;
      if (!id) continue;
      const task = id.slice(0, id.lastIndexOf('#'));
      byTask.set(task, (byTask.get(task) ?? 0) + 1);
    }
  }
  return byTask;
}

export async function measureKilledTree(
  env: BenchEnv,
  shape: TreeShape,
  log: (line: string) => void,
): Promise<KilledTreeSample> {
  log(`(12) tree, worker killed halfway: ${shape.children} children x ${shape.tasksPerChild} noop tasks`);
  const stamp = Date.now().toString(36);
  const taskQueue = `bench-tree-kill-${stamp}`;
  let worker = await spawnWorker(env, taskQueue, `tree-kill-a-${stamp}`);
  try {
    const plan = treePlan(env, 'bench-tree-kill', shape);
    const spawners = Math.ceil(shape.tasksPerChild / SPAWN_MAX);
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
      taskQueue,
      workflowId: `bench-tree-kill-${stamp}`,
      args: [plan],
    });
    // Halfway by tasks, not by children: the root runs up to 10 children at once, so at 10 x 10,000 they all run
    // together and half of them succeed only near the end.
    const half = Math.ceil((shape.children * shape.tasksPerChild) / 2);
    let tasksDone = 0;
    let done = 0;
    while (tasksDone < half) {
      await sleep(1_000);
      const progress = await tasksSucceeded(env, handle.workflowId, spawners).catch(() => null);
      if (progress) ({ tasksDone, childrenDone: done } = progress);
    }
    worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    log(
      `  killed the worker (pid ${worker.pid}) with ${tasksDone} of ${shape.children * shape.tasksPerChild} ` +
        `noop tasks and ${done} of ${shape.children} children done`,
    );
    worker = await spawnWorker(env, taskQueue, `tree-kill-b-${stamp}`);
    const restartMs = Date.now() - killedAt;
    const result = (await handle.result()) as RunResult;
    const wallMs = Date.now() - (await firstStart(env.client, handle));
    let succeeded = 0;
    let notSucceeded = 0;
    let retried = 0;
    let leasesExpired = 0;
    let completedAttempts = 0;
    let neverCompleted = 0;
    let completedTwice = 0;
    // The root's team tasks by the `tasks` query's pages: a result may list only some of them.
    const root = teamRunHandle(env.client, handle.workflowId);
    const teamTasks = [];
    for (let offset = 0; ; offset += 1_000) {
      const page = await root.tasks({ offset, limit: 1_000 });
      if (!page.length) break;
      teamTasks.push(...page);
    }
    for (const task of teamTasks) {
      const childId = (task.output as { run?: string } | undefined)?.run ?? task.child;
      if (!childId) {
        notSucceeded += shape.tasksPerChild;
        continue;
      }
      const childHandle = teamRunHandle(env.client, childId);
      const child = await teamRunResult(childHandle);
      leasesExpired += child.stats.expiredLeases ?? 0;
      // The result lists only some of a large run's tasks: the counts are its stats', the attempts the query's pages.
      succeeded += child.stats.succeeded - spawners;
      notSucceeded += child.stats.total - child.stats.succeeded;
      for (let offset = 0; ; offset += 1_000) {
        const page = await childHandle.tasks({ offset, limit: 1_000 });
        if (!page.length) break;
        retried += page.filter((t) => t.attempts > 1).length;
      }
      const completions = await completionsByKey(env, childId);
      const keys = Array.from({ length: spawners }, (_, s) => `spawn-${s}`);
      for (let s = 0; s < spawners; s += 1) {
        const count = Math.min(SPAWN_MAX, shape.tasksPerChild - s * SPAWN_MAX);
        for (let j = 0; j < count; j += 1) keys.push(`s${s}-${j}`);
      }
      for (const key of keys) {
        const n = completions.get(key) ?? 0;
        completedAttempts += n;
        if (n === 0) neverCompleted += 1;
        if (n > 1) completedTwice += 1;
      }
    }
    const children = await childCompletions(env, handle.workflowId);
    const childTasks = Array.from({ length: shape.children }, (_, i) => `${handle.workflowId}/c${i}`);
    const childrenCompletedTwice = childTasks.filter((t) => (children.get(t) ?? 0) > 1).length;
    const childrenNeverCompleted = childTasks.filter((t) => !children.get(t)).length;
    log(
      `  ${result.status} in ${(wallMs / 1000).toFixed(1)} s: ${succeeded} noop tasks succeeded, ${notSucceeded} not, ` +
        `${retried} task(s) retried, ${leasesExpired} lease(s) expired`,
    );
    log(
      `  histories: ${completedAttempts} completed attempt(s); ${neverCompleted} task(s) with none, ` +
        `${completedTwice} with more than one; children completed twice ${childrenCompletedTwice}, ` +
        `never ${childrenNeverCompleted}`,
    );
    return {
      shape,
      wallMs,
      restartMs,
      childrenDoneAtKill: done,
      tasksDoneAtKill: tasksDone,
      status: result.status,
      succeeded,
      notSucceeded,
      retried,
      leasesExpired,
      completedAttempts,
      neverCompleted,
      completedTwice,
      childrenCompletedTwice,
      childrenNeverCompleted,
    };
  } finally {
    await worker.stop();
  }
}

export function formatKilledTree(s: KilledTreeSample): string {
  const spawners = s.shape.children * Math.ceil(s.shape.tasksPerChild / SPAWN_MAX);
  return [
    '| shape | wall | noop tasks (children) done at the kill | new worker ready after | status | noop tasks succeeded | not | tasks retried | leases expired | completed attempts | tasks completed never / twice | children completed never / twice |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${s.shape.children} x ${s.shape.tasksPerChild} (+${spawners} spawners) | ${(s.wallMs / 1000).toFixed(1)} s | ` +
      `${s.tasksDoneAtKill} (${s.childrenDoneAtKill}) | ${(s.restartMs / 1000).toFixed(1)} s | ${s.status} | ${s.succeeded} | ` +
      `${s.notSucceeded} | ${s.retried} | ${s.leasesExpired} | ${s.completedAttempts} | ` +
      `${s.neverCompleted} / ${s.completedTwice} | ${s.childrenNeverCompleted} / ${s.childrenCompletedTwice} |`,
  ].join('\n');
}
