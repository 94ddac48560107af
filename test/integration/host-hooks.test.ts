import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { spawnWorkerProcess, uniqueQueue, waitFor } from '../helpers/env';
import { historyAttempts } from '../helpers/history';
import { hookLines, loggingHooks, type HookLine } from '../helpers/hook-log';
import { runForTest, workerForTest } from '../helpers/scenario';
import * as msg from '../../src/workflows/messages';
import {
  TTL_MS,
  heartbeatReached,
  HOST_PIDS_WORKER_YAML,
  pidRunning,
  recordPids,
  root,
  startLeaseRun,
  taskOf,
  tempDir,
} from './leases-helpers';

const byKey = <T extends { key: string }>(items: T[]) => Object.fromEntries(items.map((t) => [t.key, t]));

/** What a hook line says in one short string, in file order: `<hook> <attempt>[ <status>]`; shell lines as they are. */
function sequence(lines: (HookLine | string)[]): string[] {
  return lines.map((l) =>
    typeof l === 'string'
      ? l
      : [l.hook, l.attempt, l.status, l.previousFencingToken && `previous ${l.previousFencingToken}`]
          .filter(Boolean)
          .join(' '),
  );
}

describe('host hooks: createWorker({ hooks: { beforeTask, afterTask, onLeaseChanged } }) on a real worker', () => {
  it('a beforeTask that refuses fails the attempt for good with its message; the executor never runs', async () => {
    const dir = tempDir();
    const marker = path.join(dir, 'deployed');
    const seen: string[] = [];
    const worker = await workerForTest({
      hooks: {
        beforeTask: (a) => {
          seen.push(`${a.taskKey}#${a.fencingToken}`);
          return a.taskKey === 'deploy' ? { refuse: 'change freeze until Monday: no deploys' } : undefined;
        },
      },
    });
    const handle = await runForTest(
      {
        name: 'hook-refuses',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          { key: 'lint', executor: { kind: 'noop' } },
          { key: 'deploy', dependsOn: ['lint'], executor: { kind: 'shell', command: `touch "${marker}"` } },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('failed');
    const tasks = byKey(result.tasks);
    expect(tasks.lint).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(tasks.deploy).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks.deploy.lastError).toContain('change freeze until Monday: no deploys');
    const attempts = await historyAttempts(handle);
    expect(attempts.map((a) => [a.activityId, a.outcome])).toEqual([
      ['lint#1', 'completed'],
      ['deploy#1', 'failed'],
    ]);
    expect(attempts[1].failure).toMatchObject({ type: 'TEAM_TASK_HOOK_REFUSED', nonRetryable: true });
    expect(existsSync(marker)).toBe(false);
    expect(seen).toEqual(['lint#1', 'deploy#1']);
  });

  it('a slow or failing hook is the attempt failure, with its own type: the run still closes', async () => {
    const worker = await workerForTest({
      hooks: {
        timeoutMs: 500,
        beforeTask: async (a) => {
          if (a.taskKey === 'slow') await new Promise((resolve) => setTimeout(resolve, 5_000));
        },
        afterTask: (a) => {
          if (a.taskKey === 'post') throw new Error('could not post the result to the tracker');
        },
      },
    });
    const handle = await runForTest(
      {
        name: 'hook-fails',
        retry: { maxAttempts: 2, backoffMs: 100 },
        tasks: [
          { key: 'slow', executor: { kind: 'noop' } },
          { key: 'post', executor: { kind: 'shell', command: `echo '::teamrun-output::{"built":true}'` } },
        ],
      },
      worker,
    );
    const result = await handle.result();

    expect(result.status).toBe('failed');
    const tasks = byKey(result.tasks);
    // Before the executor: retried under the task's retry (nothing of the task ran).
    expect(tasks.slow).toMatchObject({ status: 'failed', attempts: 2 });
    expect(tasks.slow.lastError).toContain('beforeTask hook did not finish within 500 ms');
    // After it: not retried (its work is done), the output it was about to report kept as evidence.
    expect(tasks.post).toMatchObject({ status: 'failed', attempts: 1 });
    expect(tasks.post.lastError).toContain('afterTask hook failed: could not post the result to the tracker');
    const attempts = await historyAttempts(handle);
    const post = attempts.find((a) => a.activityId === 'post#1')!;
    expect(post.failure).toMatchObject({ type: 'TEAM_TASK_HOOK_FAILED', nonRetryable: true });
    expect(attempts.filter((a) => a.activityId.startsWith('slow#')).map((a) => a.failure?.type)).toEqual([
      'TEAM_TASK_HOOK_TIMEOUT',
      'TEAM_TASK_HOOK_TIMEOUT',
    ]);
  });

  it('onLeaseChanged runs before the new attempt does anything, and so before its settlement', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'hooks.log');
    const worker = await workerForTest({ identity: 'hooks-retry', hooks: loggingHooks(log) });
    const handle = await runForTest(
      {
        name: 'hook-lease-changed',
        retry: { maxAttempts: 3, backoffMs: 100 },
        tasks: [
          {
            key: 'flaky',
            executor: {
              kind: 'shell',
              command: `echo "exec $TEAMRUN_TASK_KEY#$TEAMRUN_FENCING_TOKEN" >> "${log}"
[ "$TEAMRUN_ATTEMPT" -ge 2 ] || { echo "first try fails" >&2; exit 1; }
echo '::teamrun-output::{"ok":true}'`,
            },
          },
        ],
      },
      worker,
    );
    expect((await handle.result()).status).toBe('succeeded');

    expect(sequence(hookLines(log))).toEqual([
      'beforeTask flaky#1',
      'exec flaky#1',
      'afterTask flaky#1 failed',
      'onLeaseChanged flaky#2 previous 1',
      'beforeTask flaky#2',
      'exec flaky#2',
      'afterTask flaky#2 succeeded',
    ]);
  });

  it('afterTask records each settlement exactly once across a kill -9 of the worker; onLeaseChanged precedes the re-lease', async () => {
    const dir = tempDir();
    const log = path.join(dir, 'hooks.log');
    const queue = uniqueQueue('hooks-kill');
    const victim = await spawnWorkerProcess({
      taskQueue: queue,
      identity: 'hooks-victim',
      script: path.join(root, 'test/helpers/hooks-worker.ts'),
      env: { TEAMRUN_HOOK_LOG: log },
      // Its task's $PPID is compared with this process (a host pid): the sandbox off (leases-helpers.ts says why).
      config: HOST_PIDS_WORKER_YAML,
    });
    onTestFinished(async () => {
      if (victim.child.exitCode === null && victim.child.signalCode === null) victim.child.kill('SIGKILL');
      await victim.exited;
    });
    const exec = `echo "exec $TEAMRUN_TASK_KEY#$TEAMRUN_FENCING_TOKEN" >> "${log}"`;
    const handle = await startLeaseRun(
      {
        name: 'hooks-kill',
        lease: { ttlMs: TTL_MS },
        tasks: [
          { key: 'lint', executor: { kind: 'shell', command: `${exec}\necho '::teamrun-output::"clean"'` } },
          {
            key: 'build',
            executor: {
              kind: 'shell',
              command: `${recordPids(dir)}
${exec}
if [ "$TEAMRUN_ATTEMPT" = 1 ]; then sleep 60; fi
echo "::teamrun-output::{\\"attempt\\":$TEAMRUN_ATTEMPT}"`,
            },
          },
          { key: 'package', dependsOn: ['build', 'lint'], executor: { kind: 'shell', command: exec } },
        ],
      },
      queue,
    );
    expect(await pidRunning(dir, 'build', 1)).toBe(victim.child.pid);
    // The victim settles lint (its afterTask line written) before it dies.
    await waitFor('lint to settle on the victim', async () => (await taskOf(handle, 'lint')).status === 'succeeded');
    await workerForTest({ taskQueue: queue, identity: 'hooks-survivor', hooks: loggingHooks(log) });
    await heartbeatReached(handle, 'build#1');
    victim.child.kill('SIGKILL');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(byKey(result.tasks).build).toMatchObject({ attempts: 2, fencingToken: 2, output: { attempt: 2 } });

    const lines = hookLines(log);
    const after = lines.filter((l): l is HookLine => typeof l !== 'string' && l.hook === 'afterTask');
    // One line per settlement the workers reported, none twice; the killed attempt reported nothing.
    const reported = (await historyAttempts(handle))
      .filter((a) => a.activityType === msg.ACTIVITY_TYPE && a.outcome !== 'timed-out')
      .map((a) => a.activityId);
    expect(after.map((l) => l.attempt).sort()).toEqual([...reported].sort());
    expect(after.map((l) => [l.attempt, l.worker, l.status])).toEqual(
      expect.arrayContaining([
        ['lint#1', 'hooks-victim', 'succeeded'],
        ['build#2', 'hooks-survivor', 'succeeded'],
        ['package#1', 'hooks-survivor', 'succeeded'],
      ]),
    );
    expect(after).toHaveLength(3);
    // The re-lease: onLeaseChanged first, on the survivor, then the attempt runs, then it settles.
    const seq = sequence(lines);
    const at = (line: string) => seq.indexOf(line);
    expect(at('onLeaseChanged build#2 previous 1')).toBeGreaterThan(at('exec build#1'));
    expect(at('onLeaseChanged build#2 previous 1')).toBeLessThan(at('beforeTask build#2'));
    expect(at('beforeTask build#2')).toBeLessThan(at('exec build#2'));
    expect(at('exec build#2')).toBeLessThan(at('afterTask build#2 succeeded'));
    expect(seq.filter((l) => l.includes('build#1'))).toEqual(['beforeTask build#1', 'exec build#1']);
  });
});
