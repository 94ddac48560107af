import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { expect } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { startRun, temporalAddress, type TestWorker } from '../helpers/env';
import { SERVER_REFUSED_COMPLETION } from '../helpers/history';

let big: Promise<Client> | undefined;
/** A client that takes large answers: a history full of 1 MB signals does not fit gRPC's default 4 MB message. */
export function largeMessageClient(): Promise<Client> {
  big ??= Connection.connect({
    address: temporalAddress(),
    channelArgs: { 'grpc.max_receive_message_length': 128 * 1024 * 1024 },
  }).then((connection) => new Client({ connection }));
  return big;
}

/**
 * Workflow-task failures in a run's history (all its runs, when it continued as new): a hostile
 * input must cause none. Paged a few events at a time: a history of large signals does not fit
 * one gRPC message.
 */
export async function workflowTaskFailures(handle: WorkflowHandle): Promise<string[]> {
  const client = await largeMessageClient();
  const failures: string[] = [];
  const seen = new Set<string>();
  let runId: string | undefined = (await handle.describe()).runId;
  // Walk back from the latest run through every run it continued from.
  for (let i = 0; runId && !seen.has(runId) && i < 20; i++) {
    seen.add(runId);
    let previous: string | undefined;
    let nextPageToken: Uint8Array | undefined;
    do {
      const page = await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId: handle.workflowId, runId },
        maximumPageSize: 2,
        nextPageToken,
      });
      for (const event of page.history?.events ?? []) {
        const failed = event.workflowTaskFailedEventAttributes;
        if (failed && !SERVER_REFUSED_COMPLETION.has(Number(failed.cause)))
          failures.push(`${String(failed.cause)}: ${failed.failure?.message ?? '(no message)'}`);
        previous ??= event.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
      }
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
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
