"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.attemptRunningSignal = void 0;
exports.sendStops = sendStops;
exports.confirmAttemptRequest = confirmAttemptRequest;
exports.handOver = handOver;
const workflow_1 = require("@temporalio/workflow");
const interface_1 = require("../activities/interface");
/**
 * Sent for long attempts (runTask, past STOP_ANNOUNCE_AFTER_MS) by their worker: `{ queue, attempts: [{ key,
 * fencingToken }] }`.
 */
exports.attemptRunningSignal = (0, workflow_1.defineSignal)(interface_1.ATTEMPT_RUNNING_SIGNAL);
/**
 * Sends each stop to the worker queue it names, fire and forget: the attempt's cancellation went
 * out with it, and is what settles the attempt whatever becomes of the stop (a stop for a worker
 * that died is never picked up and times out after `scheduleToStartTimeout`).
 */
function sendStops(requests) {
    for (const request of requests) {
        const { stopAttempts } = (0, workflow_1.proxyActivities)({
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
 * Asks the worker a request's proof names whether its attempt gateway sent it. Anything but a
 * yes (a no, a queue nobody polls, a failure) is a no: the request is then nobody's.
 */
async function confirmAttemptRequest(proof, request) {
    const { confirmAttemptRequest: confirm } = (0, workflow_1.proxyActivities)({
        taskQueue: proof.queue,
        scheduleToStartTimeout: '10s',
        startToCloseTimeout: '10s',
        retry: { maximumAttempts: 1 },
        summary: `confirm ${request.message} from ${request.key}#${request.fencingToken}`,
    });
    try {
        return (await confirm({ ...request, nonce: proof.nonce })) === true;
    }
    catch {
        return false;
    }
}
/**
 * Tells each worker that runs attempts the run carries over that their run is continuing as new,
 * and waits for the answers: an activity scheduled in the workflow task that continues as new
 * would never be delivered. A worker that does not answer (gone, frozen) is not waited for
 * longer: its attempts' adopts fail in the next run, as lost leases.
 */
async function handOver(requests) {
    await Promise.allSettled(requests.map((request) => {
        const { handOverAttempts } = (0, workflow_1.proxyActivities)({
            taskQueue: request.queue,
            scheduleToStartTimeout: '10s',
            startToCloseTimeout: '10s',
            retry: { maximumAttempts: 1 },
            summary: `hand over ${request.leaseIds.length} attempt(s) to the next run`,
        });
        return handOverAttempts({ leaseIds: request.leaseIds });
    }));
}
