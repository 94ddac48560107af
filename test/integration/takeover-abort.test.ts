import path from 'node:path';
import { describe, it } from 'vitest';
import { cancelledRunResult, teamRunResult } from '../../src/client';
import * as msg from '../../src/workflows/messages';
import { startRun, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import {
  abortRun,
  alive,
  claimOf,
  eventsOf,
  pidsOf,
  rejectionCode,
  shellHolder,
  tempDir,
  temporal,
} from './takeover-helpers';

const lease = { ttlMs: 15_000, heartbeatEveryMs: 1_500 };

describe.concurrent('stopping a whole run', () => {
  it('abortRun with two attempts running: both go to adjudication, the rest is skipped, and the run ends aborted', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('abort');
    const handle = await startRun(
      {
        name: 'abort-two',
        teammates: 2,
        lease,
        tasks: [
          shellHolder('a', path.join(dir, 'a.pids')),
          shellHolder('b', path.join(dir, 'b.pids')),
          { key: 'c', executor: { kind: 'noop' } },
          { key: 'd', dependsOn: ['a'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const pids = [...(await pidsOf(path.join(dir, 'a.pids'))), ...(await pidsOf(path.join(dir, 'b.pids')))];
    const verdict = await abortRun(handle, { reason: 'wrong branch', requestId: 'abort-1', actor: 'lead' });
    expect(verdict).toEqual({ ok: true, activeClaims: 2 });
    expect(await abortRun(handle, { requestId: 'abort-2' })).toMatchObject({ ok: true, idempotent: true });

    await waitFor(
      'both attempts to stop and the run to wait for a human',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect(pids.some(alive)).toBe(false);
    const records = await handle.query(msg.adjudicationsQuery);
    expect(records.map((r) => [r.key, r.code, r.reason, r.requestId, r.actor]).sort()).toEqual([
      ['a', 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', 'wrong branch', 'abort-1', 'lead'],
      ['b', 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', 'wrong branch', 'abort-1', 'lead'],
    ]);
    expect(await handle.query(msg.tasksQuery, { status: 'skipped' })).toEqual([
      expect.objectContaining({ key: 'c', skipReason: 'run_aborted', attempts: 0 }),
      expect.objectContaining({ key: 'd', skipReason: 'run_aborted', attempts: 0 }),
    ]);
    expect(
      await rejectionCode(
        handle.executeUpdate(msg.adjudicateUpdate, { args: [{ key: 'a', decision: 'retry', decisionId: 'r-a' }] }),
      ),
    ).toBe('run_not_accepting_work');

    await handle.executeUpdate(msg.adjudicateUpdate, { args: [{ key: 'a', decision: 'reject', decisionId: 'r-a' }] });
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'b', decision: 'accept', decisionId: 'r-b', result: { kept: true } }],
    });
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    expect(result.executions).toBe(2);
    expect(await eventsOf(handle, 'run:abort-requested')).toEqual([
      expect.objectContaining({ requestId: 'abort-1', actor: 'lead', activeClaims: 2 }),
    ]);
    expect(await eventsOf(handle, 'control:idempotent')).toEqual([
      expect.objectContaining({ message: 'abortRun', requestId: 'abort-2' }),
    ]);
  });

  it('`temporal workflow cancel` aborts the same way, keeps the run open until the decision, then closes Canceled with the result', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('cancel');
    const handle = await startRun(
      {
        name: 'abort-cancel',
        lease,
        governance: { operators: ['alice'] },
        tasks: [shellHolder('a', path.join(dir, 'a.pids')), { key: 'b', dependsOn: ['a'], executor: { kind: 'noop' } }],
      },
      worker.taskQueue,
    );
    const pids = await pidsOf(path.join(dir, 'a.pids'));
    await claimOf(handle, 'a');
    await temporal('workflow', 'cancel', '--workflow-id', handle.workflowId);

    // The attempt stops into adjudication, and the run stays open (cancel requested) until a human decides.
    await waitFor(
      'the cancelled run to wait for a human',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect(pids.some(alive)).toBe(false);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await handle.query(msg.statusQuery)).toMatchObject({
      pendingAdjudications: 1,
      cancelRequestedAt: expect.any(Number),
    });
    const details = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(details.currentDetails).toContain(
      'cancel requested: nothing new starts; closes as Canceled once the 1 pending adjudication(s) below are decided',
    );
    expect(details.currentDetails).toContain('waiting: `a` token 1: TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED');
    expect(
      await rejectionCode(
        handle.executeUpdate(msg.adjudicateUpdate, {
          args: [{ key: 'a', decision: 'retry', decisionId: 'c-a', actor: 'alice' }],
        }),
      ),
    ).toBe('run_not_accepting_work');
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'a', decision: 'accept', decisionId: 'c-a', actor: 'alice' }],
    });

    const closed = await handle.result().then(
      () => null,
      (err: unknown) => err,
    );
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    const result = cancelledRunResult(closed);
    expect(result).toMatchObject({
      status: 'aborted',
      stats: { succeeded: 1, skipped: 1, adjudication: 0 },
      cancellation: {
        abandonedAdjudications: 0,
        message: 'cancelled: every adjudication was decided before the run closed',
      },
    });
    expect(result!.adjudications).toEqual([
      expect.objectContaining({
        key: 'a',
        code: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
        actor: 'temporal',
        reason: 'workflow cancellation requested',
        result: { step: 1 },
        decision: expect.objectContaining({ decision: 'accept', actor: 'alice' }),
      }),
    ]);
    expect(result!.tasks.find((t) => t.key === 'b')).toMatchObject({ status: 'skipped', skipReason: 'run_aborted' });
    expect(await teamRunResult(handle)).toEqual(result);
    // A closed Canceled run still answers queries (its worker replays it to the same close).
    expect(await handle.query(msg.statusQuery)).toMatchObject({ state: 'aborted', pendingAdjudications: 0 });
  });

  it('without awaitAdjudication a cancel closes the run Canceled at once, its result saying the adjudications were abandoned', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const dir = tempDir('cancel-now');
    const handle = await startRun(
      { name: 'cancel-now', lease, awaitAdjudication: false, tasks: [shellHolder('a', path.join(dir, 'a.pids'))] },
      worker.taskQueue,
    );
    await pidsOf(path.join(dir, 'a.pids'));
    await claimOf(handle, 'a');
    await handle.cancel();
    const result = await teamRunResult(handle);
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    expect(result).toMatchObject({
      status: 'aborted',
      stats: { adjudication: 1 },
      cancellation: {
        abandonedAdjudications: 1,
        message: expect.stringContaining('1 adjudication(s) abandoned (awaitAdjudication is false)'),
      },
    });
  });
});
