import { defineSignal, isCancellation, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { controlQueueName } from '../plan/lease-pace';
import { ATTEMPT_RUNNING_SIGNAL, type ConfirmAttemptRequest, type StopActivities } from '../activities/interface';
import type { AttemptProof, AttemptsRunning } from '../contract';
import type { StopRequest } from '../team/stop-channel';

/**
 * Sent for long attempts (runTask, past STOP_ANNOUNCE_AFTER_MS) by their worker: `{ queue, attempts: [{ key,
 * fencingToken }] }`.
 */
export const attemptRunningSignal = defineSignal<[AttemptsRunning]>(ATTEMPT_RUNNING_SIGNAL);

/** Runs recorded before control activities had a queue of their own scheduled them on the run's: they replay so. */
export const CONTROL_QUEUE_PATCH = 'teamrun-control-queue';

/** Where a run schedules a control activity (plan/lease-pace.ts `controlQueueName`): its options' `taskQueue`. */
export function controlQueue(): { taskQueue?: string } {
  return patched(CONTROL_QUEUE_PATCH) ? { taskQueue: controlQueueName(workflowInfo().taskQueue) } : {};
}

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

/** How long a confirmation waits to be picked up by the worker a proof names, and then for its answer. */
export const CONFIRM_WITHIN_MS = 20_000;

/**
 * Asks the worker a request's proof names whether its attempt gateway sent it. Anything but a
 * yes (a no, a queue nobody polls, a failure) is a no: the request is then nobody's.
 */
export async function confirmAttemptRequest(
  proof: AttemptProof,
  request: Omit<ConfirmAttemptRequest, 'nonce'>,
  /** A cancellation of the asking scope is thrown, not taken as a no (an attempt's completion, stopped meanwhile). */
  options: { rethrowCancellation?: boolean } = {},
): Promise<boolean> {
  const { confirmAttemptRequest: confirm } = proxyActivities<StopActivities>({
    taskQueue: proof.queue,
    // A legitimate worker far past its cores took longer than 10 s to pick the question up or answer it, and its
    // attempt was then refused as forbidden. Both within the 60 s the gateway waits for the verdict and keeps the
    // nonce (GATEWAY_LIMITS); a made-up proof naming a queue nobody polls is refused after 20 s instead of 10.
    scheduleToStartTimeout: CONFIRM_WITHIN_MS,
    startToCloseTimeout: CONFIRM_WITHIN_MS,
    retry: { maximumAttempts: 1 },
    summary: `confirm ${request.message} from ${request.key}#${request.fencingToken}`,
  });
  try {
    return (await confirm({ ...request, nonce: proof.nonce })) === true;
  } catch (err) {
    if (options.rethrowCancellation && isCancellation(err)) throw err;
    return false;
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
