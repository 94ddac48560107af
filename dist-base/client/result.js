"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.cancelledRunResult = cancelledRunResult;
exports.teamRunResult = teamRunResult;
const common_1 = require("@temporalio/common");
const client_1 = require("@temporalio/client");
/**
 * The result of a run that closed as Canceled (`temporal workflow cancel`): the workflow attaches
 * its RunResult as the cancellation's details, which `handle.result()` throws as a
 * `WorkflowFailedError` caused by a `CancelledFailure`. Null for any other error.
 */
function cancelledRunResult(err) {
    if (!(err instanceof client_1.WorkflowFailedError) || !(err.cause instanceof common_1.CancelledFailure))
        return null;
    const details = err.cause.details?.[0];
    return details && typeof details === 'object' && 'status' in details ? details : null;
}
/** A run's result whether it closed Completed or Canceled (then `result.cancellation` says so). */
async function teamRunResult(handle) {
    try {
        return await handle.result();
    }
    catch (err) {
        const result = cancelledRunResult(err);
        if (result)
            return result;
        throw err;
    }
}
