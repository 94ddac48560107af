import { type ConfirmAttemptRequest } from '../activities/interface';
import type { AttemptProof, AttemptsRunning } from '../contract';
import type { StopRequest } from '../team/stop-channel';
/**
 * Sent for long attempts (runTask, past STOP_ANNOUNCE_AFTER_MS) by their worker: `{ queue, attempts: [{ key,
 * fencingToken }] }`.
 */
export declare const attemptRunningSignal: import("@temporalio/workflow").SignalDefinition<[AttemptsRunning], string>;
/**
 * Sends each stop to the worker queue it names, fire and forget: the attempt's cancellation went
 * out with it, and is what settles the attempt whatever becomes of the stop (a stop for a worker
 * that died is never picked up and times out after `scheduleToStartTimeout`).
 */
export declare function sendStops(requests: ReadonlyArray<StopRequest>): void;
/**
 * Asks the worker a request's proof names whether its attempt gateway sent it. Anything but a
 * yes (a no, a queue nobody polls, a failure) is a no: the request is then nobody's.
 */
export declare function confirmAttemptRequest(proof: AttemptProof, request: Omit<ConfirmAttemptRequest, 'nonce'>): Promise<boolean>;
/**
 * Tells each worker that runs attempts the run carries over that their run is continuing as new,
 * and waits for the answers: an activity scheduled in the workflow task that continues as new
 * would never be delivered. A worker that does not answer (gone, frozen) is not waited for
 * longer: its attempts' adopts fail in the next run, as lost leases.
 */
export declare function handOver(requests: ReadonlyArray<StopRequest>): Promise<void>;
