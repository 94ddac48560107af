"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createAgentActivities = createAgentActivities;
/**
 * The activity a team run calls to steer one of its agents: the text goes to the task's journal
 * (src/agent), which queues it for the agent's next model call and answers which turn that is.
 * The run checked the request first (src/team/agents.ts); the journal refuses a stale token.
 */
const activity_1 = require("@temporalio/activity");
const client_1 = require("@temporalio/client");
const messages_1 = require("../agent/messages");
const types_1 = require("../agent/types");
const update_retry_1 = require("../sdk/update-retry");
function createAgentActivities(deps) {
    return {
        async steerAgent(input) {
            const { client } = deps;
            const workflowId = (0, types_1.journalId)(input.workflowId, input.key);
            // A steer may come before the attempt opened its journal: it then waits there for the first call.
            const start = {
                runWorkflowId: input.workflowId,
                key: input.key,
                fencingToken: input.fencingToken,
                entries: [],
                turnOpen: 0,
                pending: [],
            };
            await client.workflow.start(types_1.JOURNAL_WORKFLOW_TYPE, {
                workflowId,
                taskQueue: activity_1.Context.current().info.taskQueue,
                args: [start],
                workflowIdConflictPolicy: 'USE_EXISTING',
            });
            const request = { text: input.text, actor: input.actor, fencingToken: input.fencingToken };
            try {
                return await (0, update_retry_1.retryUpdate)((updateId) => client.workflow.getHandle(workflowId).executeUpdate(messages_1.steerUpdate, { args: [request], updateId }));
            }
            catch (err) {
                if (err instanceof client_1.WorkflowUpdateFailedError && err.cause instanceof activity_1.ApplicationFailure)
                    throw activity_1.ApplicationFailure.nonRetryable(err.cause.message, err.cause.type ?? 'rejected');
                throw err;
            }
        },
    };
}
