"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.agentStepsSignal = void 0;
exports.steerRule = steerRule;
/**
 * The run's side of its agent tasks: the worker's `agentSteps` signal (steps to record as
 * events) and the `steerTask` rule, which hands checked guidance to the task's journal through an
 * activity and answers which model call it joins. The transcript never enters this workflow.
 */
const workflow_1 = require("@temporalio/workflow");
const interface_1 = require("../activities/interface");
/** Sent by an agent attempt's worker, batched (src/activities/step-reporter.ts). */
exports.agentStepsSignal = (0, workflow_1.defineSignal)(interface_1.AGENT_STEPS_SIGNAL);
const { steerAgent } = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '30s',
    retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['stale_attempt', 'value_too_large', 'invalid_request'] },
    summary: 'steer an agent',
});
/** The `steerTask` rule: the run's checks in the validator, then the journal's answer. */
function steerRule(run, now) {
    return {
        validate: (request) => void run.validateSteer(request),
        apply: async (payload) => {
            const request = run.validateSteer(payload);
            const { key, text, fencingToken } = request;
            let turn;
            try {
                ({ turn } = await steerAgent({
                    workflowId: run.workflowId,
                    key,
                    text,
                    actor: request.actor ?? null,
                    fencingToken,
                }));
            }
            catch (err) {
                // The journal's refusal (a newer attempt took over meanwhile) reaches the caller with its code.
                const cause = err instanceof workflow_1.ActivityFailure ? err.cause : undefined;
                if (cause instanceof workflow_1.ApplicationFailure && cause.type)
                    throw workflow_1.ApplicationFailure.nonRetryable(cause.message, cause.type);
                throw err;
            }
            run.steered(request, fencingToken, turn, now());
            return { ok: true, turn };
        },
    };
}
