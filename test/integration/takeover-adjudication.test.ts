import { describe, it } from 'vitest';
import type { AdjudicateRequest } from '../../src/plan/requests/control';
import * as msg from '../../src/workflows/messages';
import { startRun, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { abortRun, claimOf, eventsOf, rejectionCode, taskOf, temporal, waitForStatus } from './takeover-helpers';
import { workflowCodeFailures } from '../helpers/history';

const lease = { ttlMs: 15_000, heartbeatEveryMs: 1_500 };
/** Holds on its first attempt until interrupted; any later attempt prints its token and inputs and succeeds. */
const holdFirstAttempt = {
  kind: 'shell',
  command: `[ "$TEAMRUN_ATTEMPT" = 1 ] && exec sleep 600; echo "::teamrun-output::{\\"token\\":$TEAMRUN_FENCING_TOKEN,\\"inputs\\":$TEAMRUN_INPUTS}"`,
};
const printInputs = { kind: 'shell', command: `echo "::teamrun-output::$TEAMRUN_INPUTS"` };

describe.concurrent('adjudication: a human decides what an interrupted task became', () => {
  it('retry runs it again with a new token; accept succeeds it with the given result; reject fails it and skips its dependents', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'adjudicate-moves',
        teammates: 3,
        lease,
        tasks: [
          { key: 'a', executor: holdFirstAttempt },
          { key: 'b', executor: holdFirstAttempt },
          { key: 'c', executor: holdFirstAttempt },
          { key: 'a2', dependsOn: ['a'], executor: printInputs },
          { key: 'b2', dependsOn: ['b'], executor: printInputs },
          { key: 'c2', dependsOn: ['c'], executor: printInputs },
        ],
      },
      worker.taskQueue,
    );
    for (const key of ['a', 'b', 'c']) {
      const claim = await claimOf(handle, key);
      const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
        args: [{ key, fencingToken: claim.fencingToken, actor: 'alice' }],
      });
      expect(verdict.ok).toBe(true);
    }
    await waitFor(
      'the run to wait for a human',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    expect((await handle.query(msg.statusQuery)).pendingAdjudications).toBe(3);
    // Visibility is eventually consistent: poll the list an operator would run.
    const query = `WorkflowId="${handle.workflowId}" AND TeamRunStatus="AwaitingAdjudication" AND TeamRunPendingAdjudications=3`;
    const listed = await waitFor(
      'the run to be listed as awaiting adjudication',
      async () => {
        const rows = JSON.parse(await temporal('workflow', 'list', '--query', query, '--output', 'json')) as Array<{
          execution: { workflowId: string };
        }>;
        return rows.length === 1 ? rows : null;
      },
      60_000,
      250,
    );
    expect(listed[0].execution.workflowId).toBe(handle.workflowId);
    expect((await handle.query(msg.tasksQuery, { status: 'blocked' })).map((t) => t.key)).toEqual(['a2', 'b2', 'c2']);

    const decide = (request: AdjudicateRequest) => handle.executeUpdate(msg.adjudicateUpdate, { args: [request] });
    const retried = await decide({
      key: 'a',
      decision: 'retry',
      decisionId: 'dec-a',
      actor: 'alice',
      reason: 'try again',
    });
    expect(retried).toMatchObject({ ok: true, task: { key: 'a', status: 'ready' } });
    const accepted = await decide({ key: 'b', decision: 'accept', decisionId: 'dec-b', result: { by: 'hand' } });
    expect(accepted.task).toMatchObject({ status: 'succeeded', output: { by: 'hand' } });
    expect(await decide({ key: 'b', decision: 'reject', decisionId: 'dec-b' })).toEqual({
      ...accepted,
      idempotent: true,
    });
    const rejected = await decide({ key: 'c', decision: 'reject', decisionId: 'dec-c', reason: 'bad change' });
    expect(rejected.task).toMatchObject({ status: 'failed', lastError: 'rejected by adjudication: bad change' });

    const result = await handle.result();
    const byKey = Object.fromEntries(result.tasks.map((t) => [t.key, t]));
    expect(byKey.a).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      fencingToken: 2,
      output: { token: 2, inputs: {} },
    });
    expect(byKey.a2).toMatchObject({ status: 'succeeded', output: { a: { token: 2, inputs: {} } } });
    expect(byKey.b).toMatchObject({ status: 'succeeded', attempts: 1, output: { by: 'hand' } });
    expect(byKey.b2).toMatchObject({ status: 'succeeded', output: { b: { by: 'hand' } } });
    expect(byKey.c.status).toBe('failed');
    expect(byKey.c2).toMatchObject({ status: 'skipped', skipReason: 'dependency "c" failed' });
    expect(result.status).toBe('failed');
    const records = [...result.adjudications].sort((x, y) => x.key.localeCompare(y.key));
    expect(records.map((r) => [r.key, r.decision?.decision, r.decision?.decisionId])).toEqual([
      ['a', 'retry', 'dec-a'],
      ['b', 'accept', 'dec-b'],
      ['c', 'reject', 'dec-c'],
    ]);
    expect((await eventsOf(handle, 'task:adjudicated')).map((e) => e.decisionId)).toEqual(['dec-a', 'dec-b', 'dec-c']);
  });

  it('rejects every malformed or inadmissible decision in the validator, with its code, and governs who may steer', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'adjudicate-validator',
        lease,
        governance: { operators: ['alice'] },
        tasks: [
          { key: 'done', executor: { kind: 'noop' } },
          { key: 'edit', executor: { kind: 'sleep', ms: 60_000 } },
        ],
      },
      worker.taskQueue,
    );
    const claim = await claimOf(handle, 'edit');
    expect(
      await rejectionCode(
        handle.executeUpdate(msg.interruptTaskUpdate, {
          args: [{ key: 'edit', fencingToken: claim.fencingToken, actor: 'mallory' }],
        }),
      ),
    ).toBe('forbidden');
    await handle.signal(msg.interruptTaskSignal, {
      key: 'edit',
      fencingToken: claim.fencingToken,
      actor: 'mallory',
      requestId: 'm-1',
    });
    await waitFor(
      'the forbidden signal to be recorded',
      async () => (await eventsOf(handle, 'control:rejected')).length === 1,
    );
    expect((await eventsOf(handle, 'control:rejected'))[0]).toMatchObject({
      message: 'interruptTask',
      reason: 'forbidden',
      actor: 'mallory',
      requestId: 'm-1',
    });
    expect((await claimOf(handle, 'edit')).interrupted).toBe(false);

    const verdict = await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'edit', fencingToken: claim.fencingToken, actor: 'alice', evidenceDigest: 'sha256:seen' }],
    });
    expect(verdict.ok).toBe(true);
    await waitForStatus(handle, 'edit', 'adjudication');
    await waitForStatus(handle, 'done', 'succeeded');

    const code = (request: unknown) =>
      rejectionCode(handle.executeUpdate(msg.adjudicateUpdate, { args: [request as AdjudicateRequest] }));
    const ok = { key: 'edit', decision: 'accept', decisionId: 'd-1', actor: 'alice' };
    expect(await code({ ...ok, key: 'nope' })).toBe('not_found');
    expect(await code({ ...ok, decision: 'approve' })).toBe('invalid_decision');
    expect(await code({ ...ok, decisionId: undefined })).toBe('decision_id_required');
    expect(await code({ ...ok, key: 'done' })).toBe('adjudication_not_required');
    expect(await code({ ...ok, evidenceDigest: 'sha256:other' })).toBe('evidence_mismatch');
    expect(await code({ ...ok, actor: 'mallory' })).toBe('forbidden');
    expect(await code({ ...ok, actor: undefined })).toBe('forbidden');
    expect(await rejectionCode(abortRun(handle, { actor: 'mallory' }))).toBe('forbidden');

    expect(await abortRun(handle, { actor: 'alice', reason: 'stop here' })).toEqual({ ok: true, activeClaims: 0 });
    expect(await code({ ...ok, decision: 'retry' })).toBe('run_not_accepting_work');
    expect(await taskOf(handle, 'edit')).toMatchObject({ status: 'adjudication' });

    const decided = await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ ...ok, evidenceDigest: 'sha256:seen', decision: 'reject' } as AdjudicateRequest],
    });
    expect(decided.task.status).toBe('failed');
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    const history = await handle.fetchHistory();
    // A burst of signals may meet a workflow task's completion (the server's UNHANDLED_COMMAND): not a code failure.
    expect(workflowCodeFailures(history)).toEqual([]);
  });

  it('closes unresolved after adjudicationTimeoutMs, its pending records in the result and its search attributes', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const handle = await startRun(
      {
        name: 'adjudicate-timeout',
        lease,
        adjudicationTimeoutMs: 2_000,
        tasks: [
          { key: 'edit', executor: { kind: 'sleep', ms: 60_000 } },
          { key: 'next', dependsOn: ['edit'], executor: { kind: 'noop' } },
        ],
      },
      worker.taskQueue,
    );
    const claim = await claimOf(handle, 'edit');
    await handle.signal(msg.interruptTaskSignal, { key: 'edit', fencingToken: claim.fencingToken });
    const result = await handle.result();
    expect(result.status).toBe('unresolved');
    expect(result.adjudications).toEqual([
      expect.objectContaining({ key: 'edit', code: 'TEAM_TASK_HUMAN_INTERRUPTED', decision: null }),
    ]);
    expect(result.tasks.find((t) => t.key === 'next')?.status).toBe('skipped');
    const [required] = await eventsOf(handle, 'task:adjudication-required');
    const timedOut = await eventsOf(handle, 'run:adjudication-timeout');
    expect(timedOut).toHaveLength(1);
    expect(timedOut[0].at - required.at).toBeGreaterThanOrEqual(2_000);
    const description = await handle.describe();
    expect(description.status.name).toBe('COMPLETED');
    expect(description.typedSearchAttributes.getAll()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: expect.objectContaining({ name: 'TeamRunStatus' }), value: 'Unresolved' }),
        expect.objectContaining({ key: expect.objectContaining({ name: 'TeamRunPendingAdjudications' }), value: 1 }),
      ]),
    );
  });
});
