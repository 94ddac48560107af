import { defineSignal, proxyActivities } from '@temporalio/workflow';
import { ATTEMPT_RUNNING_SIGNAL, type StopActivities } from '../activities/interface';
import type { AttemptsRunning } from '../contract';
import type { StopRequest } from '../team/stop-channel';

/**
 * Sent for long attempts (runTask, past STOP_ANNOUNCE_AFTER_MS) by their worker: `{ queue, attempts: [{ key,
 * fencingToken }] }`.
 */
export const attemptRunningSignal = defineSignal<[AttemptsRunning]>(ATTEMPT_RUNNING_SIGNAL);

/**
 * Sends each stop to the worker queue it names, fire and forget: the attempt's cancellation went
 * out with it, and is what settles the attempt whatever becomes of the stop (a stop for a worker
 * that died is never picked up and times out after `scheduleToStartTimeout`).
 */
export function sendStops(requests: ReadonlyArray<StopRequest>): void {
  for (const request of requests) {
    const { stopAttempts } = proxyActivities<StopActivities>({
      taskQueue: request.queue,
      scheduleToStartTimeout: '10s',
      startToCloseTimeout: '10s',
      retry: { maximumAttempts: 1 },
      summary: `stop ${request.leaseIds.length} attempt(s)`,
    });
    stopAttempts({ leaseIds: request.leaseIds }).catch(() => undefined);
  }
}

/**
 * Tells each worker that runs attempts the run carries over that their run is continuing as new,
 * and waits for the answers: an activity scheduled in the workflow task that continues as new
 * would never be delivered. A worker that does not answer (gone, frozen) is not waited for
 * longer: its attempts' adopts fail in the next run, as lost leases.
 */
export async function handOver(requests: ReadonlyArray<StopRequest>): Promise<void> {
  await Promise.allSettled(
    requests.map((request) => {
      const { handOverAttempts } = proxyActivities<StopActivities>({
        taskQueue: request.queue,
        scheduleToStartTimeout: '10s',
        startToCloseTimeout: '10s',
        retry: { maximumAttempts: 1 },
        summary: `hand over ${request.leaseIds.length} attempt(s) to the next run`,
      });
      return handOverAttempts({ leaseIds: request.leaseIds });
    }),
  );
}
