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
