"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.agentJournal = agentJournal;
/**
 * `agentJournal`: one per agent task of a run (id from journalId), holding its transcript so that
 * the run's own history sees none of it. Attempts append each step through fenced updates before
 * they act on it; the next attempt opens it and continues from the last step. It continues as new
 * when its history grows, and closes when an attempt finishes it or nobody writes for a long time.
 */
const workflow_1 = require("@temporalio/workflow");
const messages_1 = require("./messages");
const state_1 = require("./state");
const types_1 = require("./types");
async function agentJournal(snapshot) {
    const state = new state_1.JournalState(snapshot);
    let touched = 0;
    const refusal = (check) => {
        try {
            check();
        }
        catch (err) {
            if (err instanceof state_1.JournalRefused)
                throw workflow_1.ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code);
            throw err;
        }
    };
    (0, workflow_1.setHandler)(messages_1.journalUpdate, (request) => {
        touched++;
        return state.apply(request);
    }, { validator: (request) => refusal(() => state.validate(request)) });
    (0, workflow_1.setHandler)(messages_1.steerUpdate, (request) => {
        touched++;
        return state.steer(request);
    }, { validator: (request) => refusal(() => state.validateSteer(request)) });
    (0, workflow_1.setHandler)(messages_1.transcriptQuery, () => state.snapshot);
    for (;;) {
        const seen = touched;
        const grown = () => (0, workflow_1.workflowInfo)().historyLength >= types_1.JOURNAL_LIMITS.continueAsNewEvents || (0, workflow_1.workflowInfo)().continueAsNewSuggested;
        const woke = await (0, workflow_1.condition)(() => state.finished || touched !== seen || grown(), types_1.JOURNAL_LIMITS.idleMs);
        if (state.finished || !woke)
            break;
        if (grown()) {
            await (0, workflow_1.condition)(workflow_1.allHandlersFinished);
            await (0, workflow_1.continueAsNew)(state.snapshot);
        }
    }
    await (0, workflow_1.condition)(workflow_1.allHandlersFinished);
    return state.snapshot;
}
