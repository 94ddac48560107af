import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { ATTEMPT_RUNNING_SIGNAL } from '../../src/activities/interface';
import type { AttemptsRunning, LedgerLimits } from '../../src/contract';
import { createLedger } from '../../src/ledger/client';
import { ledgerHandle } from '../../src/ledger/handle';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { RunResult, TeamRunHandle } from '../../src/client';
import { eventsQuery } from '../../src/workflows/messages';
import { startRun, startTestWorker, testClient, uniqueQueue, waitFor, type TestWorker } from './env';

/** A test's `onTestFinished`; a concurrent test must pass its context's own (vitest cannot tell concurrent tests apart). */
export type OnTestFinished = (fn: () => Promise<void> | void) => void;

/** An in-process worker on a queue of its own, stopped when the test ends. */
export async function workerForTest(
  options: Parameters<typeof startTestWorker>[0] = {},
  finished: OnTestFinished = onTestFinished,
): Promise<TestWorker> {
  const worker = await startTestWorker(options);
  finished(() => worker.stop());
  return worker;
}

/**
 * One in-process worker shared by the tests of a describe block: started before the first, stopped after
 * the last. Its queue is named at once, so the block can use it in its own definitions.
 */
export function workerForSuite(options: Parameters<typeof startTestWorker>[0] = {}): { taskQueue: string } {
  const taskQueue = options.taskQueue ?? uniqueQueue('test');
  let worker: TestWorker | undefined;
  beforeAll(async () => {
    worker = await startTestWorker({ ...options, taskQueue });
  });
  afterAll(async () => {
    await worker?.stop();
  });
  return { taskQueue };
}

/** Starts a run on `worker`'s queue; a run the test leaves open is terminated when it ends. */
export async function runForTest(plan: TeamPlanInput, worker: TestWorker): Promise<TeamRunHandle> {
  const handle = await startRun(plan, worker.taskQueue, uniqueQueue(plan.name));
  onTestFinished(async () => {
    const { status } = await handle.describe();
    if (status.name === 'RUNNING') await handle.terminate('test finished');
  });
  return handle;
}

/** The code a refused update failed with (its validator's or its handler's), or "accepted". */
export async function updateCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return (err.cause as { type?: string }).type;
    throw err;
  }
  return 'accepted';
}

/**
 * Every task view of a run, through the `tasks` query's pages (on a closed run too, while a worker
 * polls its queue): a big run's result leaves views out (`omittedTasks`).
 */
/** Task views as the `tasks` query answers them (times as ISO strings). */
export type TaskViews = Awaited<ReturnType<TeamRunHandle['tasks']>>;

export async function allTaskViews(handle: TeamRunHandle): Promise<TaskViews> {
  const views: TaskViews = [];
  for (;;) {
    const page = await handle.tasks({ offset: views.length, limit: 1_000 });
    if (page.length === 0) return views;
    views.push(...page);
  }
}

/**
 * A shared ledger with `limits` whose workflow runs on `taskQueue`, terminated when the test ends; its id. `options`
 * as `createLedger` takes them (who creates it, its operators, an early continue-as-new).
 */
export async function ledgerForTest(
  name: string,
  limits: LedgerLimits,
  taskQueue: string,
  finished: OnTestFinished = onTestFinished,
  options: Omit<Parameters<typeof createLedger>[3], 'taskQueue'> = {},
): Promise<string> {
  const client = await testClient();
  const ledger = uniqueQueue(name);
  await createLedger(client, ledger, limits, { ...options, taskQueue });
  finished(async () => {
    await ledgerHandle(client, ledger)
      .terminate('test cleanup')
      .catch(() => undefined);
  });
  return ledger;
}

/**
 * What the Web UI shows as a workflow's current details (the SDK's `__temporal_workflow_metadata` query): a run's or
 * a ledger's, by any handle to it.
 */
export async function currentDetailsOf(handle: { query: WorkflowHandle['query'] }): Promise<string> {
  return (await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';
}

/** The run's events of one type, oldest first (the ring keeps its newest 2,000; one page reads them all). */
export async function eventsOf(handle: TeamRunHandle, type: string) {
  return (await handle.query(eventsQuery, { limit: 10_000 })).events.filter((e) => e.type === type);
}

/** What the run's first long attempt announced of its worker (its stop queue: public in history), once it did. */
export async function announcedWorker(handle: Pick<TeamRunHandle, 'fetchHistory'>): Promise<AttemptsRunning> {
  return waitFor('the attempt to announce its worker', async () => {
    const history = await handle.fetchHistory();
    const signal = (history.events ?? []).find(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === ATTEMPT_RUNNING_SIGNAL,
    );
    const payload = signal?.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0];
    return payload ? (defaultPayloadConverter.fromPayload(payload) as AttemptsRunning) : null;
  });
}

/**
 * The run's result, or after `withinMs` a failure that says where the run was: its current details (what `teamrun
 * status` reads) and its newest events. A test waiting on a run that never ends then fails with the run's state,
 * not with vitest's bare "timed out" (which reaches CI's report as a stack alone).
 */
export async function resultWithin(handle: TeamRunHandle, withinMs = 90_000): Promise<RunResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), withinMs)));
  try {
    const first = await Promise.race([handle.result(), late]);
    if (first !== 'late') return first;
  } finally {
    clearTimeout(timer);
  }
  const details = await currentDetailsOf(handle).catch((err: Error) => `(no details: ${err.message})`);
  const events = await handle
    .query(eventsQuery, { limit: 10_000 })
    .then((r) => r.events.slice(-15).map((e) => JSON.stringify(e)))
    .catch((err: Error) => [`(no events: ${err.message})`]);
  throw new Error(
    `run ${handle.workflowId} did not end within ${withinMs} ms; its details:\n${details}\n` +
      `its newest events:\n${events.join('\n')}`,
  );
}
