import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { uniqueQueue, waitFor, type WorkerProcess } from '../helpers/env';
import {
  TTL_MS,
  attemptId,
  attemptsByTask,
  completionsByTask,
  eventsOf,
  recordPids,
  report,
  spawnWorker,
  spawnWorkers,
  startLeaseRun,
  tempDir,
} from './leases-helpers';

/** Keys of the attempts whose shells `worker` has started, from the pid files they leave. */
function attemptsStartedBy(dir: string, worker: WorkerProcess): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.pids'))
    .filter(
      (file) =>
        existsSync(path.join(dir, file)) &&
        Number(readFileSync(path.join(dir, file), 'utf8').split(' ')[1]) === worker.child.pid,
    )
    .map((file) => file.slice(0, -'.pids'.length));
}

describe('a worker process killed and restarted twice during a run (real worker processes)', () => {
  it('settles every one of 20 tasks exactly once, counted from the history', async () => {
    const dir = tempDir();
    const queue = uniqueQueue('lease-churn');
    // Each worker takes at most 4 of the 8 teammates' attempts, so the steady one can never
    // take every task alone and each restarted worker surely gets attempts of its own.
    // The sandbox off: which worker runs an attempt is its shell's $PPID, a host pid (leases-helpers.ts says why).
    const config = path.join(dir, 'worker.yaml');
    writeFileSync(
      config,
      'worker:\n  maxConcurrentAttempts: 4\n  shutdownGraceMs: 500\n  shell:\n    killGraceMs: 1000\n  sandbox: { mode: off }\n',
    );
    const [first, steady] = await spawnWorkers(queue, ['churn-a1', 'churn-b'], undefined, config);
    const keys = Array.from({ length: 20 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
    const handle = await startLeaseRun(
      {
        name: 'lease-churn',
        teammates: 8,
        lease: { ttlMs: TTL_MS },
        // Two kills can cost a task two attempts; that must never cost the task.
        retry: { maxAttempts: 5, backoffMs: 0 },
        tasks: keys.map((key) => ({
          key,
          executor: {
            kind: 'shell',
            command: `${recordPids(dir)}\nsleep 3\necho "::teamrun-output::{\\"token\\":$TEAMRUN_FENCING_TOKEN}"`,
          },
        })),
      },
      queue,
    );

    let victim = first;
    const killed: string[] = [];
    for (const next of ['churn-a2', 'churn-a3']) {
      const current = victim;
      const running = await waitFor(
        `${victim.identity} to run an attempt`,
        () => {
          const started = attemptsStartedBy(dir, current);
          return started.length > 0 ? started : null;
        },
        60_000,
      );
      victim.child.kill('SIGKILL');
      await victim.exited;
      killed.push(`${victim.identity} (running ${running.join(', ')})`);
      victim = await spawnWorker(queue, next, undefined, config);
    }
    const result = await handle.result();

    expect(result.status).toBe('succeeded');
    expect(result.tasks.map((t) => t.status)).toEqual(keys.map(() => 'succeeded'));
    // Counted from the server's history: one completed `runTask` per task, never two.
    expect(await completionsByTask(handle)).toEqual(Object.fromEntries(keys.map((key) => [key, 1])));
    // The completion that settled each task is its latest attempt, the one that holds its highest token.
    const byTask = await attemptsByTask(handle);
    for (const task of result.tasks) {
      const completed = byTask.get(task.key)!.find((a) => a.outcome === 'completed')!;
      expect(attemptId(completed.activityId).token).toBe(task.fencingToken);
      expect(task.output).toEqual({ token: task.fencingToken });
      expect(task.attempts).toBe(byTask.get(task.key)!.length);
    }
    // Every lease that expired was held by a killed worker (the history says who started it; the
    // event knows it too once a heartbeat got through), and both killed workers lost some.
    const expired = await eventsOf(handle, 'lease:expired');
    const lostBy = expired.map((e) =>
      byTask.get(e.key as string)!.find((a) => attemptId(a.activityId).token === e.fencingToken)!,
    );
    expect(lostBy.map((a) => a.outcome)).toEqual(expired.map(() => 'timed-out'));
    expect(new Set(lostBy.map((a) => a.startedBy))).toEqual(new Set(['churn-a1', 'churn-a2']));
    for (const [i, event] of expired.entries()) expect([null, lostBy[i].startedBy]).toContain(event.workerIdentity);
    expect(steady.child.exitCode).toBeNull();
    report(
      `killed ${killed.join(' then ')}; ${result.executions} attempts for 20 tasks, ${expired.length} leases expired`,
    );
  });
});
