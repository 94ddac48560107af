import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import { testClient, uniqueQueue, waitFor } from '../helpers/env';
import { eventsOf, recordPids, report, spawnWorker, startLeaseRun, tempDir } from './leases-helpers';

/** Leases are what the kill breaks: long enough that a loaded machine never expires one before, short enough to end. */
const lease = { ttlMs: 15_000 };

async function runHandle(workflowId: string): Promise<TeamRunHandle> {
  return (await testClient()).workflow.getHandle(workflowId) as unknown as TeamRunHandle;
}

/**
 * root: 3 team tasks and 2 shell tasks; each child: 2 team tasks and 1 shell task; each grandchild: 5 shell tasks
 * that take a few seconds (44 tasks in 10 runs). Every shell records its execution (`<key>-<attempt>.pids`).
 */
function treePlan(dir: string) {
  const shell = (key: string, seconds: number) => ({
    key,
    executor: { kind: 'shell', command: `${recordPids(dir)}\nsleep ${seconds}\necho "::teamrun-output::\\"${key}\\""` },
  });
  const grandchild = (name: string) => ({
    name,
    teammates: 5,
    lease,
    awaitAdjudication: false,
    tasks: [1, 2, 3, 4, 5].map((i) => shell(`${name}-${i}`, 4)),
  });
  const child = (name: string) => ({
    name,
    teammates: 3,
    lease,
    awaitAdjudication: false,
    tasks: [
      { key: 'x', executor: { kind: 'team', plan: grandchild(`${name}x`) } },
      { key: 'y', executor: { kind: 'team', plan: grandchild(`${name}y`) } },
      shell(`${name}-own`, 1),
    ],
  });
  return {
    name: 'tree-crash',
    teammates: 5,
    lease,
    awaitAdjudication: false,
    tasks: [
      ...['a', 'b', 'c'].map((key) => ({ key, executor: { kind: 'team', plan: child(key) } })),
      shell('r1', 1),
      shell('r2', 1),
    ],
  };
}

/** Executions of each task key: the pid files its attempts' shells wrote. */
function executions(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.pids'))) {
    const key = file.replace(/-\d+\.pids$/, '');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('a tree of teams when its worker process is killed (real worker processes)', () => {
  it('SIGKILL of the only worker while grandchild attempts run: every task at every level settles exactly once', async () => {
    const dir = tempDir();
    const queue = uniqueQueue('tree-kill');
    const victim = await spawnWorker(queue, 'tree-victim');
    const handle = await startLeaseRun(treePlan(dir), queue);
    // Grandchild shells (sleeping 4 s) are running: some of them die with the worker.
    const grandchildShells = () => [...executions(dir).keys()].filter((k) => /^[abc][xy]-\d$/.test(k)).length;
    await waitFor('grandchild attempts to run', () => grandchildShells() >= 5, 60_000);
    const runningAtKill = grandchildShells();
    victim.child.kill('SIGKILL');
    await victim.exited;
    await spawnWorker(queue, 'tree-survivor');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');

    // Every run of the tree, by its workflow id: the root, 3 children, 6 grandchildren, each attempt #1.
    const ids = [handle.workflowId];
    for (const c of ['a', 'b', 'c']) {
      ids.push(`${handle.workflowId}/${c}#1`);
      for (const g of ['x', 'y']) ids.push(`${handle.workflowId}/${c}#1/${g}#1`);
    }
    let tasks = 0;
    let reLeased = 0;
    const runs = await Promise.all(ids.map(runHandle));
    for (const run of runs) {
      const runResult = await teamRunResult(run);
      expect(runResult.status).toBe('succeeded');
      // Each task settled once: succeeded, one `task:completed`, and no other settlement of it.
      const completed = (await eventsOf(run, 'task:completed')).map((e) => e.key);
      const failed = await eventsOf(run, 'task:failed');
      expect(failed).toEqual([]);
      expect(completed.sort()).toEqual(runResult.tasks.map((t) => t.key).sort());
      for (const task of runResult.tasks) {
        expect(task.status).toBe('succeeded');
        // A team task's attempt is its child workflow: it outlives a worker, so it is never started twice.
        if (task.key.length === 1) expect(task.attempts).toBe(1);
      }
      tasks += runResult.tasks.length;
      reLeased += (await eventsOf(run, 'lease:expired')).length;
    }
    expect(tasks).toBe(5 + 3 * 3 + 6 * 5);
    // No team task started a second child: #2 of any is not a workflow.
    for (const id of ids.slice(1)) {
      const second = id.replace(/#1$/, '#2');
      await expect((await runHandle(second)).describe()).rejects.toThrow();
    }
    // The kill hit running attempts: their leases expired and they ran again; every shell task ran at least once.
    expect(reLeased).toBeGreaterThanOrEqual(1);
    const ran = executions(dir);
    expect(ran.size).toBe(2 + 3 + 30);
    const twice = [...ran.values()].filter((n) => n > 1).length;
    // A task ran twice only where its lease expired (one killed before its shell began ran once).
    expect(twice).toBeGreaterThanOrEqual(1);
    expect(twice).toBeLessThanOrEqual(reLeased);
    report(`tree of 44 tasks in 10 runs: ${runningAtKill} grandchild shells started before the kill,`);
    report(`${reLeased} leases expired and ran again, ${[...ran.values()].reduce((a, b) => a + b, 0)} executions`);
  }, 180_000);
});
