import type { TeamPlanInput } from '../../src/plan/schema';
import type { TeamRunHandle } from '../../src/client';
import {
  activeClaimsQuery,
  adjudicateUpdate,
  interruptTaskUpdate,
  statusQuery,
  tasksQuery,
} from '../../src/workflows/messages';
import { spawnWorkerProcess, startRun, uniqueQueue, waitFor, type WorkerProcess } from './env';

const usage = (inputTokens: number, outputTokens: number, costUsd: number) =>
  `echo '::teamrun-usage::${JSON.stringify({ inputTokens, outputTokens, costUsd, model: 'test-model' })}'`;

/**
 * A plan whose run has a story to tell: `prepare` succeeds; `crawl` hangs on its first attempt
 * (its worker is frozen past the 2 s lease, the lease expires, attempt 2 succeeds); `review`
 * runs until an operator interrupts it, and then waits for adjudication.
 */
export function eventfulPlan(name: string): TeamPlanInput {
  return {
    name,
    teammates: 2,
    lease: { ttlMs: 2_000 },
    // An attempt limit, not a token or dollar one: under those, crawl's lost lease would stop the run (usage-unknown).
    budget: { maxTasks: 10 },
    tasks: [
      { key: 'prepare', title: 'Prepare sources', executor: { kind: 'shell', command: usage(1_200, 300, 0.02) } },
      {
        key: 'crawl',
        title: 'Crawl the docs',
        dependsOn: ['prepare'],
        executor: {
          kind: 'shell',
          command: `if [ "$TEAMRUN_ATTEMPT" = 1 ]; then sleep 60; fi; ${usage(4_000, 1_000, 0.09)}`,
        },
      },
      { key: 'review', title: 'Human review', executor: { kind: 'sleep', ms: 600_000 } },
    ],
  };
}

export interface EventfulRun {
  handle: TeamRunHandle;
  worker: WorkerProcess;
  taskQueue: string;
  /** Sends the `adjudicate` update that accepts `review`; the run then ends succeeded. */
  accept(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `eventfulPlan` on a real worker process until it awaits adjudication: one lease expiry
 * (SIGSTOP past the TTL, then SIGCONT: the stale attempt is refused, crawl is re-leased with token 2)
 * and one interruption (the `interruptTask` update with the token from `activeClaims`).
 */
export async function startEventfulRun(team = uniqueQueue('story')): Promise<EventfulRun> {
  const taskQueue = uniqueQueue('story-queue');
  const worker = await spawnWorkerProcess({ taskQueue, identity: `worker-${taskQueue.slice(-4)}` });
  const handle = await startRun(eventfulPlan(team), taskQueue);
  const stop = async () => {
    const pid = worker.child.pid!;
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      process.kill(pid, 'SIGCONT');
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    const { status } = await handle.describe();
    if (status.name === 'RUNNING') await handle.terminate('test finished');
  };
  try {
    const claims = () => handle.query(activeClaimsQuery);
    const review = await waitFor('review to hold a lease', async () =>
      (await claims()).find((c) => c.key === 'review'),
    );
    const verdict = await handle.executeUpdate(interruptTaskUpdate, {
      args: [
        {
          key: 'review',
          fencingToken: review.fencingToken,
          actor: 'alice',
          reason: 'needs a human look: $5 or $6?',
          requestId: 'review-takeover',
        },
      ],
    });
    if (!verdict.ok) throw new Error(`interruptTask refused: ${JSON.stringify(verdict)}`);
    await waitFor('review to stop and await adjudication', async () =>
      (await handle.query(tasksQuery)).some((t) => t.key === 'review' && t.status === 'adjudication'),
    );
    await waitFor('crawl attempt 1 to be running on the worker', async () => {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      return pending.some((a) => a.activityId === 'crawl#1' && a.lastStartedTime);
    });
    process.kill(worker.child.pid!, 'SIGSTOP');
    await waitFor('the server to time out crawl#1 (lease expiry)', async () => {
      const pending = (await handle.describe()).raw.pendingActivities ?? [];
      return !pending.some((a) => a.activityId === 'crawl#1');
    });
    process.kill(worker.child.pid!, 'SIGCONT');
    await waitFor(
      'the run to await adjudication',
      async () => (await handle.query(statusQuery)).state === 'awaiting_adjudication',
      60_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    handle,
    worker,
    taskQueue,
    async accept() {
      await handle.executeUpdate(adjudicateUpdate, {
        args: [
          {
            key: 'review',
            decision: 'accept',
            decisionId: 'review-accepted',
            actor: 'bob',
            reason: 'looked fine',
            result: { approved: true },
          },
        ],
      });
    },
    stop,
  };
}
