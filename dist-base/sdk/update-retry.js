"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UPDATE_RETRY = void 0;
exports.refusedAtHandover = refusedAtHandover;
exports.retryUpdate = retryUpdate;
/**
 * Updates that survive a handover. When a signal (or an activity's result) reaches a run while
 * it completes its workflow task with continue-as-new, the server refuses the continue-as-new and
 * fails that task; an update the task had been handed is then refused with gRPC
 * FAILED_PRECONDITION ("Unable to perform workflow execution update due to unexpected workflow
 * task failure": the server's WorkflowNotReady). Nothing of a failed workflow task reaches history,
 * so the update was not applied, and sending it again lands it on the retried task or on the new
 * run. Every door that sends a run an update (the handle, and through it the CLI; the worker's
 * attempt gateway) sends it through `retryUpdate`.
 */
const node_crypto_1 = require("node:crypto");
const client_1 = require("@temporalio/client");
/** gRPC's status code FAILED_PRECONDITION, which carries the server's WorkflowNotReady. */
const FAILED_PRECONDITION = 9;
/**
 * How long a refused update keeps trying: 6 tries, waiting 0.25-0.5, 0.5-1, 1-2, 2-4 and 4-8 s between them. A
 * handover takes the server one more workflow task, a few milliseconds to a second. The rest covers a busy worker:
 * a workflow task the server timed out (10 s) leaves the workflow refusing updates, with the same status ("Workflow
 * Task in failed state"), until its next task completes (seen: a ledger's first task took 15 s on two loaded cores).
 */
exports.UPDATE_RETRY = {
    tries: 6,
    firstWaitMs: 500,
};
/** True for the refusal an update meets when it reaches a run whose workflow task the server failed. */
function refusedAtHandover(err) {
    return err instanceof client_1.ServiceError && (0, client_1.isGrpcServiceError)(err.cause) && err.cause.code === FAILED_PRECONDITION;
}
/**
 * Sends an update with `send`, again while it is refused at a handover, up to `UPDATE_RETRY.tries`
 * times. Every try carries the same update id: should an earlier try have reached the run after
 * all, the same run answers with that update's outcome instead of applying it twice. The request
 * itself is the caller's to make idempotent (its requestId or decisionId), and is sent unchanged.
 */
async function retryUpdate(send, updateId = (0, node_crypto_1.randomUUID)(), wait = sleep) {
    for (let tryNumber = 1;; tryNumber++) {
        try {
            return await send(updateId);
        }
        catch (err) {
            if (tryNumber >= exports.UPDATE_RETRY.tries || !refusedAtHandover(err))
                throw err;
            // Halved at random, so updates refused together do not all come back together.
            const ms = exports.UPDATE_RETRY.firstWaitMs * 2 ** (tryNumber - 1);
            await wait(ms / 2 + Math.random() * (ms / 2));
        }
    }
}
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
