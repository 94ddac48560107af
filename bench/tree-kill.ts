import { teamRunHandle, teamRunResult } from '../src/client';
import type { RunResult } from '../src/contract';
import { WORKFLOW_TYPE, statusQuery } from '../src/workflows/messages';
import { sleep, spawnWorker, type BenchEnv } from './env';
import { SPAWN_MAX, firstStart, treePlan, type TreeShape } from './tree';

/**
 * Benchmark (12), `--kill-halfway`: the tree of `measureTreeShape` with its only worker killed with SIGKILL once half
 * of its team tasks have succeeded, and a new worker started on the same queue (issue 40: nothing lost). Every
 * child's result is read: how many noop tasks succeeded, how many tasks took another attempt, how many leases
 * expired. That no task settles twice is what fencing tokens guarantee and test/integration/team-crash.test.ts
 * checks event by event; a result holds one status per task, so this bench cannot count it.
 */
export interface KilledTreeSample {
  shape: TreeShape;
  wallMs: number;
  /** From the kill to the new worker's first poll (it prints "ready"). */
  restartMs: number;
  /** Team tasks that had succeeded when the worker was killed. */
  childrenDoneAtKill: number;
  status: string;
  /** Noop tasks that succeeded across every child, and those in any other state. */
  succeeded: number;
  notSucceeded: number;
  /** Tasks (spawners included) that needed more than one attempt: those whose attempt the kill cut. */
  retried: number;
  /** Leases that expired in the children: an attempt the dead worker held stopped heartbeating. */
  leasesExpired: number;
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
    const handle = await env.client.workflow.start(WORKFLOW_TYPE, {
      taskQueue,
      workflowId: `bench-tree-kill-${stamp}`,
      args: [plan],
    });
    const half = Math.ceil(shape.children / 2);
    let done = 0;
    while (done < half) {
      await sleep(500);
      done = (await handle.query(statusQuery).catch(() => null))?.stats.succeeded ?? done;
    }
    worker.child.kill('SIGKILL');
    const killedAt = Date.now();
    log(`  killed the worker (pid ${worker.pid}) with ${done} of ${shape.children} children done`);
    worker = await spawnWorker(env, taskQueue, `tree-kill-b-${stamp}`);
    const restartMs = Date.now() - killedAt;
    const result = (await handle.result()) as RunResult;
    const wallMs = Date.now() - (await firstStart(env.client, handle));
    const spawners = Math.ceil(shape.tasksPerChild / SPAWN_MAX);
    let succeeded = 0;
    let notSucceeded = 0;
    let retried = 0;
    let leasesExpired = 0;
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
    }
    log(
      `  ${result.status} in ${(wallMs / 1000).toFixed(1)} s: ${succeeded} noop tasks succeeded, ${notSucceeded} not, ` +
        `${retried} task(s) retried, ${leasesExpired} lease(s) expired`,
    );
    return {
      shape,
      wallMs,
      restartMs,
      childrenDoneAtKill: done,
      status: result.status,
      succeeded,
      notSucceeded,
      retried,
      leasesExpired,
    };
  } finally {
    await worker.stop();
  }
}

export function formatKilledTree(s: KilledTreeSample): string {
  const spawners = s.shape.children * Math.ceil(s.shape.tasksPerChild / SPAWN_MAX);
  return [
    '| shape | wall | children done at the kill | new worker ready after | status | noop tasks succeeded | not | tasks retried | leases expired |',
    '|---|---|---|---|---|---|---|---|---|',
    `| ${s.shape.children} x ${s.shape.tasksPerChild} (+${spawners} spawners) | ${(s.wallMs / 1000).toFixed(1)} s | ` +
      `${s.childrenDoneAtKill} | ${(s.restartMs / 1000).toFixed(1)} s | ${s.status} | ${s.succeeded} | ` +
      `${s.notSucceeded} | ${s.retried} | ${s.leasesExpired} |`,
  ].join('\n');
}
