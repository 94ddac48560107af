import type { WorkflowHandle } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { describe, inject, it } from 'vitest';
import * as lm from '../../src/ledger/messages';
import { ledgerWorkflowId } from '../../src/plan/requests/ledger';
import { testClient, uniqueQueue, waitFor } from '../helpers/env';
import { workflowCodeFailures } from '../helpers/history';
import { workerForTest } from '../helpers/scenario';

/** The ledger's hand-over bound in this test (its least): it continues as new once its history reaches it. */
const BOUND = 100;

/**
 * Temporal evaluates a workflow's wake conditions in every activation, also one that carries only an update its
 * validator rejected. Such an update leaves no event in history, so on replay that activation does not happen. A
 * ledger whose wait woke there for its history's length (bench section 12, at 4,002 events: a refused `batch` as the
 * history passed 4,000) cancelled its timer where no replay can, and every later replay failed as nondeterministic:
 * its workflow task retried for ever and every run on it stalled. Here a refused `acquire` arrives exactly as the
 * ledger's history passes its bound, and the run's recorded history must replay.
 */
describe("a ledger's hand-over bound, passed by an activation that leaves no event", () => {
  it('a rejected update arriving as the history passes the bound leaves a history that replays', async ({
    expect,
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const client = await testClient();
    const name = uniqueQueue('handover');
    const workflowId = ledgerWorkflowId(name);
    await client.workflow.start(lm.LEDGER_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: worker.taskQueue,
      args: [{ id: name, limits: { maxConcurrent: 1 }, operators: ['op'], continueAsNewAfterEvents: BOUND }],
    });
    onTestFinished(async () => {
      await client.workflow
        .getHandle(workflowId)
        .terminate('test over')
        .catch(() => undefined);
    });
    const latest = () => client.workflow.getHandle(workflowId);
    const acquire = (attemptId: string) =>
      latest().executeUpdate(lm.ledgerAcquireUpdate, {
        args: [
          { attemptId, workflowId: 'wf-test', reservation: { tokens: 0, usd: 0 }, leaseMs: 600_000, actor: 'op' },
        ] as never,
      });
    // The ledger's current run once it is idle (no workflow task pending), with its history's length.
    const idle = async (): Promise<{ runId: string; length: number }> => {
      let found = { runId: '', length: 0 };
      await waitFor('the ledger to be idle', async () => {
        const described = await latest().describe();
        if (described.raw.pendingWorkflowTask) return false;
        const run = client.workflow.getHandle(workflowId, described.runId, { followRuns: false });
        found = { runId: described.runId, length: (await run.fetchHistory()).events?.length ?? 0 };
        return true;
      });
      return found;
    };

    // The slot it holds gives the ledger's wait a timer (its expiry), which a wrong wake-up would cancel.
    expect(await acquire('a1')).toMatchObject({ ok: true });
    let landed: string | null = null;
    for (let attempt = 0; attempt < 10 && landed === null; attempt++) {
      // Renewals (4 events each) bring the history to 93-97 events. Then a registration whose proof names a queue no
      // worker polls is accepted (5 events: its workflow task, its acceptance, its confirmation's activity) and waits
      // out its confirmation (20 s to start) in its handler, as a busy ledger's batches wait for theirs: its workflow
      // task started below the bound, the next one (the rejected update's) at or past it. Overshooting hands over in a
      // renewal's activation, as it should; then the next run is tried.
      let { runId, length } = await idle();
      while (length < BOUND - 7) {
        await latest().signal(lm.ledgerRenewSignal, { attemptId: 'a1' });
        const now = await idle();
        if (now.runId !== runId) break;
        length = now.length;
      }
      const now = await idle();
      if (now.runId !== runId || now.length < BOUND - 7 || now.length > BOUND - 3) continue;
      runId = now.runId;
      const proof = { queue: uniqueQueue('nobody'), nonce: `nonce${String(attempt).padStart(12, '0')}` };
      void latest()
        .executeUpdate(lm.ledgerRegisterUpdate, { args: [{ workflowId: 'wf-test', proof }] as never })
        .catch(() => undefined);
      await waitFor('the registration to be accepted', async () => (await idle()).length > now.length);
      // Refused in the validator (the one slot is held): no event, but an activation at the bound.
      await expect(acquire('a2')).rejects.toThrow();
      landed = runId;
    }
    expect(landed).not.toBeNull();
    // A renewal (an event) lets the ledger hand over; then its recorded run is replayed with today's code.
    await latest().signal(lm.ledgerRenewSignal, { attemptId: 'a1' });
    await waitFor('the ledger to continue as new', async () => (await idle()).runId !== landed, 60_000);
    const run = client.workflow.getHandle(workflowId, landed!, { followRuns: false }) as WorkflowHandle;
    const history = await run.fetchHistory();
    // Live, no workflow task failed: the worker that ran it did not meet the replay's error either.
    expect(workflowCodeFailures(history)).toEqual([]);
    await expect(
      Worker.runReplayHistory(
        { workflowBundle: { codePath: inject('workflowBundle') }, replayName: 'ledger-handover' },
        history,
        workflowId,
      ),
    ).resolves.toBeUndefined();
    // The ledger kept its books across the hand-over and still answers.
    const status = await latest().query(lm.ledgerStatusQuery);
    expect(status.inFlight).toBe(1);
  });
});
