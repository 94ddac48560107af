import type { WorkflowHandle } from '@temporalio/client';
import { expect } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { startRun, testClient, type TestWorker } from '../helpers/env';

/** Workflow-task failures in a run's history (all its runs, when it continued as new): a hostile input must cause none. */
export async function workflowTaskFailures(handle: WorkflowHandle): Promise<string[]> {
  const failures: string[] = [];
  const seen = new Set<string>();
  let runId: string | undefined = (await handle.describe()).runId;
  // Walk back from the latest run through every run it continued from.
  const client = await testClient();
  for (let i = 0; runId && !seen.has(runId) && i < 20; i++) {
    seen.add(runId);
    const history = await client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
    let previous: string | undefined;
    for (const event of history.events ?? []) {
      if (event.workflowTaskFailedEventAttributes) failures.push(event.workflowTaskFailedEventAttributes.failure?.message ?? '(no message)');
      previous ??= event.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
    }
    runId = previous;
  }
  return failures;
}

/** The worker still runs plans: a trivial run on its queue succeeds. */
export async function expectLiveWorker(worker: TestWorker): Promise<void> {
  const plan: TeamPlanInput = { name: 'still-alive', tasks: [{ key: 'ping', executor: { kind: 'noop' } }] };
  const handle = await startRun(plan, worker.taskQueue);
  expect((await handle.result()).status).toBe('succeeded');
}

/** The failure a refused run closes with: its message (as `teamrun status` shows it). */
export async function refusal(handle: WorkflowHandle): Promise<string> {
  try {
    await handle.result();
  } catch (err) {
    const cause = (err as { cause?: { message?: string; type?: string } }).cause;
    return `${cause?.type ?? ''}: ${cause?.message ?? String(err)}`;
  }
  return 'no refusal: the run completed';
}
