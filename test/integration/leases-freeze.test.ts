import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FencedStore } from '../../src/fenced';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import {
  TTL_MS,
  attemptsByTask,
  completionsByTask,
  eventsOf,
  heartbeatReached,
  pidRunning,
  recordPids,
  report,
  root,
  spawnWorker,
  startLeaseRun,
  survivor,
  taskOf,
  tempDir,
} from './leases-helpers';

const readText = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');

describe('a frozen worker (SIGSTOP) past its lease (real worker processes)', () => {
  it('loses the task to another worker; resumed, its completion settles nothing and its fenced write is rejected', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'fence.db');
    const queue = uniqueQueue('lease-freeze');
    // Alone on the queue at first, so the first attempt is surely the one that gets frozen.
    const frozen = await spawnWorker(queue, 'freeze-victim');
    // Every attempt writes the report through the fenced resource with its own token. The first
    // waits for a go file first: it stands for a writer that was paused at the worst moment.
    const publish = `${recordPids(dir)}
if [ "$TEAMRUN_ATTEMPT" = 1 ]; then while [ ! -f "${dir}/go" ]; do sleep 0.05; done; fi
"${process.execPath}" "${root}/bin/teamrun.js" fence write --db "${db}" --resource "$TEAMRUN_WORKFLOW_ID/report" \\
  --value "report by attempt $TEAMRUN_ATTEMPT" > "${dir}/write-$TEAMRUN_ATTEMPT.out" 2>&1
echo $? > "${dir}/write-$TEAMRUN_ATTEMPT.rc"
echo "::teamrun-output::{\\"attempt\\":$TEAMRUN_ATTEMPT}"`;
    const handle = await startLeaseRun(
      {
        name: 'lease-freeze',
        lease: { ttlMs: TTL_MS },
        tasks: [
          { key: 'publish', executor: { kind: 'shell', command: publish } },
          // Keeps the run open until the frozen worker has had its say.
          {
            key: 'announce',
            dependsOn: ['publish'],
            executor: { kind: 'shell', command: `while [ ! -f "${dir}/release" ]; do sleep 0.1; done` },
          },
        ],
      },
      queue,
    );
    expect(await pidRunning(dir, 'publish', 1)).toBe(frozen.child.pid);
    await survivor(queue, 'freeze-survivor');
    await heartbeatReached(handle, 'publish#1');

    const frozenAt = Date.now();
    frozen.child.kill('SIGSTOP');
    // Watched in the history, not by queries: a query that reaches the frozen worker hangs. A frozen
    // worker also holds open polls, and a workflow task one of them swallows times out (10 s) first.
    await waitFor(
      'a later attempt of publish to complete',
      async () => (await attemptsByTask(handle)).get('publish')!.some((a) => a.outcome === 'completed'),
      60_000,
    );
    await waitFor('publish to succeed', async () => (await taskOf(handle, 'publish')).status === 'succeeded');
    const publishDone = await taskOf(handle, 'publish');
    const winner = publishDone.fencingToken;
    expect(winner).toBeGreaterThanOrEqual(2);
    expect(publishDone.output).toEqual({ attempt: publishDone.attempts });
    expect(Number(readText(path.join(dir, `publish-${publishDone.attempts}.pids`)).split(' ')[1])).toBe(process.pid);
    expect(readText(path.join(dir, `write-${publishDone.attempts}.rc`))).toBe('0');
    const resource = `${handle.workflowId}/report`;
    const store = new FencedStore(db);
    expect(store.read(resource)).toMatchObject({ token: winner, value: `report by attempt ${publishDone.attempts}` });

    // The frozen attempt's shell wakes and writes with its old token: the resource refuses it.
    writeFileSync(path.join(dir, 'go'), '');
    await waitFor('the stale write to be answered', () => readText(path.join(dir, 'write-1.rc')));
    expect(readText(path.join(dir, 'write-1.rc'))).toBe('3');
    expect(readText(path.join(dir, 'write-1.out'))).toContain(
      `FENCED_WRITE_REJECTED: fenced write to "${resource}" rejected: fencing token 1 is older than the highest seen, ${winner}`,
    );
    expect(store.read(resource)).toMatchObject({ token: winner, value: `report by attempt ${publishDone.attempts}` });
    store.close();

    // The worker resumes and learns (from a heartbeat, or from reporting the finished attempt) that the attempt is gone.
    const before = { task: await taskOf(handle, 'publish'), completions: await completionsByTask(handle) };
    frozen.child.kill('SIGCONT');
    await waitFor(
      'the resumed worker to be told its attempt is gone',
      () => /attempt lost its lease|Activity not found on completion/.test(frozen.output()),
      60_000,
    );
    expect(await taskOf(handle, 'publish')).toEqual(before.task);
    expect(await completionsByTask(handle)).toEqual(before.completions);

    writeFileSync(path.join(dir, 'release'), '');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.find((t) => t.key === 'publish')).toMatchObject({
      attempts: publishDone.attempts,
      fencingToken: winner,
      output: { attempt: publishDone.attempts },
    });
    const attempts = (await attemptsByTask(handle)).get('publish')!;
    expect(attempts[0]).toMatchObject({ activityId: 'publish#1', outcome: 'timed-out', startedBy: frozen.identity });
    expect(attempts.filter((a) => a.outcome === 'completed').map((a) => [a.activityId, a.startedBy])).toEqual([
      [`publish#${winner}`, 'freeze-survivor'],
    ]);
    expect((await eventsOf(handle, 'task:completed')).filter((e) => e.key === 'publish')).toHaveLength(1);
    expect(await eventsOf(handle, 'lease:expired')).toContainEqual(
      expect.objectContaining({
        key: 'publish',
        fencingToken: 1,
        holder: 'teammate-1',
        workerIdentity: frozen.identity,
      }),
    );
    const changed = (await eventsOf(handle, 'lease:changed')).filter((e) => e.key === 'publish');
    expect(changed[0]).toMatchObject({
      previous: { fencingToken: 1, workerIdentity: frozen.identity },
      next: { fencingToken: 2 },
    });
    const next = attempts.find((a) => a.activityId === 'publish#2')!;
    report(`SIGSTOP -> next attempt started: ${next.startedAt! - frozenAt} ms (lease TTL ${TTL_MS} ms)`);
    expect((await handle.query(msg.statusQuery)).state).toBe('succeeded');
  });
});
