import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, ledgerStatus } from '../../src/ledger/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { TeamRunHandle } from '../../src/client';
import {
  spawnWorkerProcess,
  startRun,
  startTestWorker,
  testClient,
  uniqueQueue,
  waitFor,
  type TestWorker,
  type WorkerProcess,
} from '../helpers/env';

const TTL_MS = 2_000;
/** A ledger slot lives two lease TTLs without a renewal. */
const SLOT_LEASE_MS = 2 * TTL_MS;

const plan = (name: string, ledger: string, tasks: TeamPlanInput['tasks']): TeamPlanInput => ({
  name,
  lease: { ttlMs: TTL_MS },
  budget: { ledger },
  tasks,
});

/**
 * The ledger runs on an in-process worker of its own queue; the team run under test runs on a
 * real worker process on another queue, so killing that process takes the run's workflow and
 * attempts down and leaves the ledger running.
 */
describe('a shared ledger when a worker process dies (shared dev server)', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** An in-process worker for the ledger; `stop()` may be called before the cleanup does. */
  async function ledgerWorker(taskQueue?: string): Promise<TestWorker> {
    const worker = await startTestWorker({ taskQueue });
    let stopped: Promise<void> | undefined;
    const stop = () => (stopped ??= worker.stop());
    cleanup.push(stop);
    return { ...worker, stop };
  }

  async function workerProcess(taskQueue: string, identity: string): Promise<WorkerProcess> {
    const worker = await spawnWorkerProcess({ taskQueue, identity });
    cleanup.push(async () => {
      worker.child.kill('SIGKILL');
      await worker.exited;
    });
    return worker;
  }

  const killed = async (worker: WorkerProcess) => {
    worker.child.kill('SIGKILL');
    await worker.exited;
  };

  const terminateLater = (handle: TeamRunHandle) =>
    cleanup.push(() => handle.terminate('test cleanup').catch((err: unknown) => err));

  it('frees the slot of a run whose worker was killed once the slot lease runs out', async () => {
    const client = await testClient();
    const ledgerQueue = (await ledgerWorker()).taskQueue;
    const ledger = uniqueQueue('kill');
    await createLedger(client, ledger, { maxConcurrent: 1 }, { taskQueue: ledgerQueue });
    const runQueue = uniqueQueue('kill-run');
    const doomed = await workerProcess(runQueue, 'doomed');

    const stuck = await startRun(
      plan('stuck', ledger, [{ key: 'long', executor: { kind: 'sleep', ms: 60_000 } }]),
      runQueue,
    );
    terminateLater(stuck);
    // The attempt runs and renews its slot (the lease moved past its first expiry).
    await waitFor('the attempt to hold and renew the only slot', async () => {
      const [slot] = (await ledgerStatus(client, ledger)).slots;
      return slot?.workflowId === stuck.workflowId && slot.expiresAt > slot.acquiredAt + slot.leaseMs;
    });

    await killed(doomed);
    const killedAt = Date.now();
    await waitFor('the slot to be freed', async () => (await ledgerStatus(client, ledger)).inFlight === 0, 20_000);
    const freedAfterMs = Date.now() - killedAt;
    if (process.env.TEAMRUN_TEST_FIGURES) console.log(`ledger slot freed ${freedAfterMs} ms after kill -9`);
    // Freed by the slot's lease running out (counted as expired below), not by anything later; the margin is for a
    // loaded machine's timers and the polling above.
    expect(freedAfterMs).toBeLessThan(SLOT_LEASE_MS + 8_000);
    expect((await ledgerStatus(client, ledger)).counters.expired).toBe(1);

    // The freed slot serves the next run at once.
    const next = await startRun(plan('next', ledger, [{ key: 'quick', executor: { kind: 'noop' } }]), ledgerQueue);
    expect((await next.result()).status).toBe('succeeded');
  });

  it('charges a settlement retried after the worker crashed in the middle of it once', async () => {
    const client = await testClient();
    let ledgerSide = await ledgerWorker();
    const ledgerQueue = ledgerSide.taskQueue;
    const ledger = uniqueQueue('resettle');
    await createLedger(client, ledger, { maxTokens: 100_000 }, { taskQueue: ledgerQueue });
    const runQueue = uniqueQueue('resettle-run');
    const first = await workerProcess(runQueue, 'first');

    const handle = await startRun(
      plan('resettle', ledger, [
        // Its estimate covers what it reports, so the usage line needs nothing of the ledger while it runs.
        {
          key: 'spend',
          estimate: { tokens: 1_000 },
          executor: { kind: 'shell', command: `sleep 1; echo '::teamrun-usage::{"inputTokens":700}'` },
        },
      ]),
      runQueue,
    );
    terminateLater(handle);
    await waitFor('the attempt to hold a slot', async () => (await ledgerStatus(client, ledger)).inFlight === 1);

    // With the ledger's worker stopped, the settlement the run sends after the attempt hangs
    // in the worker process, which is killed in the middle of it.
    await ledgerSide.stop();
    await waitFor('the settlement to be under way for a second', async () => {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      const settle = pending.find((a) => a.activityId === 'spend#1:ledger-settle');
      const started = settle?.state === temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;
      return started && Date.now() - tsToMs(settle.lastStartedTime) > 1_000;
    });
    await killed(first);

    ledgerSide = await ledgerWorker(ledgerQueue);
    await workerProcess(runQueue, 'second');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.budget.used.tokens).toBe(700);

    const status = await ledgerStatus(client, ledger);
    expect(status.used.tokens).toBe(700);
    // The killed worker's settlement reached the ledger when its worker came back. Signed within the last 30 s under
    // the key the ledger confirmed, it is taken on its signature, and the retry from the second worker is a duplicate
    // (charged nothing); signed earlier, the killed worker cannot vouch for it (forbidden, nothing recorded) and the
    // retry charges it. Either way the attempt is charged once.
    console.log(`[ledger-crash] resettled: ${JSON.stringify(status.counters)}`);
    expect(status.counters.settled).toBe(1);
    expect(status.counters.duplicateSettles).toBeLessThanOrEqual(1);
    expect(status.inFlight).toBe(0);
  });
});
