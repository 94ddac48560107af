import { describe, expect, it } from 'vitest';
import type { AdjudicateRequest, InterruptVerdict } from '../../src/contract';
import type { TeamRun } from '../../src/team/run';
import * as msg from '../../src/workflows/messages';
import { uniqueQueue, waitFor } from '../helpers/env';
import { completionsByTask, eventsOf, spawnWorkers, startLeaseRun } from '../integration/leases-helpers';
import { claimOf } from '../integration/takeover-helpers';
import { figure, listed, restartAround, workerConfig } from './cluster-helpers';

type AdjudicateVerdict = ReturnType<TeamRun['adjudicate']>;

describe('the frontend restarted while people steer a run', () => {
  it('an interrupt sent while the frontend is down (kill -9) and an adjudication sent while it restarts (SIGTERM) both arrive, once each', async () => {
    const queue = uniqueQueue('cluster-frontend');
    const workers = await spawnWorkers(queue, ['frontend-a', 'frontend-b'], undefined, workerConfig);
    const handle = await startLeaseRun(
      {
        name: 'cluster-frontend',
        lease: { ttlMs: 5_000 },
        tasks: [
          // Holds on its first attempt until interrupted; a later attempt succeeds with its token.
          {
            key: 'hold',
            executor: {
              kind: 'shell',
              command: `[ "$TEAMRUN_ATTEMPT" = 1 ] && exec sleep 600; echo "::teamrun-output::{\\"token\\":$TEAMRUN_FENCING_TOKEN}"`,
            },
          },
          {
            key: 'after',
            dependsOn: ['hold'],
            executor: { kind: 'shell', command: 'echo "::teamrun-output::$TEAMRUN_INPUTS"' },
          },
        ],
      },
      queue,
    );
    const claim = await claimOf(handle, 'hold', 60_000);

    // The client sends the interrupt while no frontend answers; its retries carry it over the restart.
    let interrupt: Promise<InterruptVerdict> | undefined;
    let sentAt = 0;
    const down1 = await restartAround('frontend', 'SIGKILL', () => {
      sentAt = Date.now();
      interrupt = handle.executeUpdate(msg.interruptTaskUpdate, {
        args: [
          { key: 'hold', fencingToken: claim.fencingToken, actor: 'alice', requestId: 'int-1', reason: 'taking over' },
        ],
      });
    });
    const verdict = await interrupt!;
    const interruptMs = Date.now() - sentAt;
    expect(verdict.ok).toBe(true);
    await waitFor(
      'the run to wait for a human',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
      60_000,
    );
    await waitFor(
      'the run to be listed as awaiting adjudication',
      async () =>
        (
          await listed(
            `WorkflowId="${handle.workflowId}" AND TeamRunStatus="AwaitingAdjudication" AND TeamRunPendingAdjudications=1`,
          )
        ).length === 1,
      60_000,
      500,
    );

    const decision: AdjudicateRequest = {
      key: 'hold',
      decision: 'retry',
      decisionId: 'dec-1',
      actor: 'alice',
      reason: 'run it again',
    };
    let adjudication: Promise<AdjudicateVerdict> | undefined;
    let decidedAt = 0;
    const down2 = await restartAround('frontend', 'SIGTERM', () => {
      decidedAt = Date.now();
      adjudication = handle.executeUpdate(msg.adjudicateUpdate, { args: [decision] });
    });
    const decided = await adjudication!;
    const adjudicateMs = Date.now() - decidedAt;
    expect(decided).toMatchObject({ ok: true, task: { key: 'hold', status: 'ready' } });

    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const byKey = Object.fromEntries(result.tasks.map((t) => [t.key, t]));
    expect(byKey.hold).toMatchObject({ status: 'succeeded', attempts: 2, fencingToken: 2, output: { token: 2 } });
    expect(byKey.after).toMatchObject({ status: 'succeeded', output: { hold: { token: 2 } } });
    // Each arrived exactly once, retries and all.
    expect((await eventsOf(handle, 'task:interrupt-requested')).map((e) => e.key)).toEqual(['hold']);
    expect((await eventsOf(handle, 'task:adjudicated')).map((e) => e.decisionId)).toEqual(['dec-1']);
    expect(result.adjudications.map((a) => [a.key, a.decision?.decisionId])).toEqual([['hold', 'dec-1']]);
    expect(await completionsByTask(handle)).toEqual({ hold: 1, after: 1 });
    for (const worker of workers) expect(worker.child.exitCode).toBeNull();
    figure(
      `frontend kill -9 + restart (down ${down1.downMs} ms): the interrupt sent meanwhile got its verdict ${interruptMs} ms after it was sent; ` +
        `frontend SIGTERM + restart (down ${down2.downMs} ms): the adjudication got its verdict ${adjudicateMs} ms after it was sent; each recorded once`,
    );
  });
});
