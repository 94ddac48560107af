"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STEP_REPORTING = void 0;
exports.stepReporter = stepReporter;
const agent_1 = require("../plan/requests/agent");
const interface_1 = require("./interface");
exports.STEP_REPORTING = {
    /** How long a step waits for others to share its signal. */
    flushMs: 250,
    /** Steps held while a signal is on its way. */
    held: 200,
    /** How long an ending attempt waits for its last steps to reach the run. */
    drainMs: 2_000,
};
function stepReporter(client, attempt) {
    const waiting = [];
    let timer;
    let sending = Promise.resolve();
    const flush = () => {
        timer = undefined;
        const steps = waiting.splice(0, agent_1.STEPS_LIMITS.perSignal);
        if (!steps.length)
            return;
        const payload = { key: attempt.taskKey, fencingToken: attempt.fencingToken, steps };
        sending = sending
            .then(() => client.workflow.getHandle(attempt.workflowId).signal(interface_1.AGENT_STEPS_SIGNAL, payload))
            .catch(() => undefined)
            .then(() => {
            if (waiting.length && !timer)
                timer = setTimeout(flush, 0);
        });
    };
    return {
        emit: (step) => {
            waiting.push(step);
            if (waiting.length > exports.STEP_REPORTING.held)
                waiting.splice(0, waiting.length - exports.STEP_REPORTING.held);
            timer ??= setTimeout(flush, exports.STEP_REPORTING.flushMs);
        },
        drain: async () => {
            clearTimeout(timer);
            while (waiting.length)
                flush();
            await Promise.race([sending, new Promise((resolve) => setTimeout(resolve, exports.STEP_REPORTING.drainMs))]);
        },
    };
}
