"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runForeignActivity = runForeignActivity;
const workflow_1 = require("@temporalio/workflow");
const foreign_activity_1 = require("../team/foreign-activity");
/**
 * Schedules an `activity` task's attempt: the activity type the plan names, on its own task
 * queue (never teamrun's worker), with the same id, retry and cancellation as `runTask`.
 * Resolves to the outcome its result means; rejects as `runTask` does, for `outcomeOf`.
 */
function runForeignActivity(claim, workflowId, summary) {
    const options = (0, foreign_activity_1.foreignActivityOptions)(claim);
    const activities = (0, workflow_1.proxyActivities)({
        activityId: claim.activityId,
        taskQueue: options.taskQueue,
        ...(options.heartbeatTimeoutMs !== undefined ? { heartbeatTimeout: options.heartbeatTimeoutMs } : {}),
        startToCloseTimeout: options.startToCloseTimeoutMs,
        retry: { maximumAttempts: 1 },
        cancellationType: workflow_1.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
        summary,
    });
    return activities[options.activityType]((0, foreign_activity_1.foreignActivityInput)(workflowId, claim)).then(foreign_activity_1.foreignResultOutcome);
}
