import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tsToMs } from '@temporalio/common/lib/time';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/devserver/server';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import {
  attemptsByTask,
  completionsByTask,
  eventsOf,
  heartbeatReached,
  pidRunning,
  recordPids,
  startLeaseRun,
  taskOf,
  tempDir,
} from '../integration/leases-helpers';
import { clusterState, figure } from './cluster-helpers';
import { createHost, fencedService, spawnWorkerIn, startOutbox } from './hosts';

const TTL_MS = 3_000;
/** The sandbox off: the test compares a task's $PPID with the worker process (worker-host-pids.yaml says why). */
const workerConfig = path.join(__dirname, 'worker-host-pids.yaml');
const readText = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');

describe('two worker hosts (network namespaces), one cut off from the network mid-attempt', () => {
  it('re-leases the attempt on the other host after the TTL; when the link returns, the late write is refused and nothing re-settles', async () => {
    const dir = tempDir();
    const frontendPort = clusterState().ports.grpc.frontend;
    const [hostA, hostB] = [await createHost('a', frontendPort), await createHost('b', frontendPort)];
    const fencePort = await freePort();
    const fenced = await fencedService(path.join(dir, 'fence.db'), [hostA, hostB], fencePort);
    for (const host of [hostA, hostB]) await startOutbox(host, fencePort, path.join(dir, `spool-${host.nsIp}`));
    const lateAnswer = path.join(dir, `spool-${hostA.nsIp}`, '1.out');
    const queue = uniqueQueue('cluster-partition');
    // Alone on the queue at first, so the first attempt is surely on host A.
    const workerA = await spawnWorkerIn(hostA, { taskQueue: queue, identity: 'host-a', config: workerConfig });

    // Each attempt writes the report to the fenced resource through its host's outbox, over that
    // host's link, with its own token. Attempt 1 queues its write once the test says "go" (after
    // the cut) and holds on; the outbox delivers the write whenever the link lets it, whatever
    // became of the attempt by then. Later attempts wait for their write's answer.
    const spool = `${dir}/spool-$(ip -o -4 addr show | sed -n 's/.*inet \\(10\\.250\\.[0-9]*\\.2\\)\\/.*/\\1/p')`;
    const queueWrite = `printf '{"resource":"%s","token":%s,"value":"report by attempt %s"}' "$TEAMRUN_WORKFLOW_ID/report" "$TEAMRUN_FENCING_TOKEN" "$TEAMRUN_ATTEMPT" > "$spool/$TEAMRUN_ATTEMPT.tmp" && mv "$spool/$TEAMRUN_ATTEMPT.tmp" "$spool/$TEAMRUN_ATTEMPT.json"`;
    const publish = `${recordPids(dir)}
spool="${spool}"
if [ "$TEAMRUN_ATTEMPT" = 1 ]; then
  while [ ! -f "${dir}/go" ]; do sleep 0.05; done
  ${queueWrite}
  exec sleep 600
fi
${queueWrite}
while [ ! -f "$spool/$TEAMRUN_ATTEMPT.out" ]; do sleep 0.05; done
grep -q '^200 ' "$spool/$TEAMRUN_ATTEMPT.out" || exit 1
echo "::teamrun-output::{\\"attempt\\":$TEAMRUN_ATTEMPT}"`;
    const handle = await startLeaseRun(
      {
        name: 'cluster-partition',
        lease: { ttlMs: TTL_MS },
        // The cut-off worker's open polls can take (and lose) a later attempt too before they end.
        retry: { maxAttempts: 10, backoffMs: 0 },
        tasks: [
          { key: 'publish', executor: { kind: 'shell', command: publish } },
          // Keeps the run open until the cut-off worker has had its say.
          {
            key: 'announce',
            dependsOn: ['publish'],
            executor: { kind: 'shell', command: `while [ ! -f "${dir}/release" ]; do sleep 0.1; done` },
          },
        ],
      },
      queue,
    );
    expect(await pidRunning(dir, 'publish', 1, 60_000)).toBe(workerA.child.pid);
    const workerB = await spawnWorkerIn(hostB, { taskQueue: queue, identity: 'host-b', config: workerConfig });
    await heartbeatReached(handle, 'publish#1');

    const cutAt = Date.now();
    hostA.cut();
    writeFileSync(path.join(dir, 'go'), '');
    // Watched in the history, not by queries: a query may be routed to the cut-off worker.
    const winning = await waitFor(
      'an attempt of publish on host B to complete',
      async () => (await attemptsByTask(handle)).get('publish')!.find((a) => a.outcome === 'completed'),
      180_000,
      250,
    );
    expect(winning.startedBy).toBe('host-b');
    const winner = Number(winning.activityId.split('#')[1]);
    expect(winner).toBeGreaterThanOrEqual(2);
    const resource = `${handle.workflowId}/report`;
    expect(fenced.store.read(resource)).toMatchObject({ token: winner, writer: hostB.nsIp });
    // Host A is still cut off: its write has not arrived.
    expect(readText(lateAnswer)).toBe('');
    expect(workerA.child.exitCode).toBeNull();
    const before = {
      task: await waitFor('publish to succeed', async () => {
        const t = await taskOf(handle, 'publish');
        return t.status === 'succeeded' ? t : null;
      }),
      completions: await completionsByTask(handle),
    };
    const releasedAt = winning.startedAt! - cutAt;

    const restoredAt = Date.now();
    hostA.restore();
    const answer = await waitFor('the late write from host A to arrive', () => readText(lateAnswer), 120_000);
    expect(answer).toMatch(/^409 /);
    expect(JSON.parse(answer.slice(4))).toMatchObject({ code: 'FENCED_WRITE_REJECTED', highestSeen: winner });
    expect(fenced.store.read(resource)).toMatchObject({
      token: winner,
      value: `report by attempt ${before.task.attempts}`,
      writer: hostB.nsIp,
    });
    const lateWriteMs = Date.now() - restoredAt;

    // Back on the network, worker A learns its attempt is gone; nothing it reports settles anything.
    await waitFor(
      'host A to be told its attempt is gone',
      () => /attempt lost its lease|Activity not found on completion|not found/i.test(workerA.output()),
      120_000,
    );
    expect(await taskOf(handle, 'publish')).toEqual(before.task);
    expect(await completionsByTask(handle)).toEqual(before.completions);

    writeFileSync(path.join(dir, 'release'), '');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks.find((t) => t.key === 'publish')).toMatchObject({
      fencingToken: winner,
      output: { attempt: before.task.attempts },
    });
    const attempts = (await attemptsByTask(handle)).get('publish')!;
    expect(attempts[0]).toMatchObject({ activityId: 'publish#1', outcome: 'timed-out', startedBy: 'host-a' });
    // Every attempt host A took timed out; the one completion is host B's.
    expect(attempts.filter((a) => a.startedBy === 'host-a').every((a) => a.outcome === 'timed-out')).toBe(true);
    expect(attempts.filter((a) => a.outcome === 'completed').map((a) => [a.activityId, a.startedBy])).toEqual([
      [`publish#${winner}`, 'host-b'],
    ]);
    expect((await eventsOf(handle, 'task:completed')).filter((e) => e.key === 'publish')).toHaveLength(1);
    expect(await eventsOf(handle, 'lease:expired')).toContainEqual(
      expect.objectContaining({ key: 'publish', fencingToken: 1, workerIdentity: 'host-a' }),
    );
    expect((await handle.query(msg.statusQuery)).state).toBe('succeeded');
    expect(workerA.child.exitCode).toBeNull();
    expect(workerB.child.exitCode).toBeNull();
    // Where the time between the cut and the next attempt went, from the history.
    const events = (await handle.fetchHistory()).events ?? [];
    const at = (e: (typeof events)[number]) => tsToMs(e.eventTime) - cutAt;
    const leaseExpiredMs = at(events.find((e) => e.activityTaskTimedOutEventAttributes)!);
    const stuckWorkflowTasks = events.filter((e) => e.workflowTaskTimedOutEventAttributes).length;
    figure(
      `network cut (host A link down mid-attempt, lease TTL ${TTL_MS} ms): lease expired ${leaseExpiredMs} ms after the cut; ` +
        `${stuckWorkflowTasks} workflow task(s) then went to host A's open polls and timed out (10 s each); ` +
        `attempt re-leased and started on host B ${releasedAt} ms after the cut ` +
        `(publish#${winner}; ${attempts.length} attempts); link restored: the late write arrived ${lateWriteMs} ms later and was refused (409, highest token ${winner}); 1 completion in history`,
    );
  });
});
