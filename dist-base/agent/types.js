"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.JOURNAL_LIMITS = exports.JOURNAL_WORKFLOW_TYPE = void 0;
exports.journalId = journalId;
exports.JOURNAL_WORKFLOW_TYPE = 'agentJournal';
/** The journal of task `key` of run `workflowId`: one id per task, whichever attempt writes it. */
function journalId(workflowId, key) {
    return `teamrun-agent:${workflowId}:${key}`;
}
exports.JOURNAL_LIMITS = {
    /** The transcript as JSON: it rides in one continue-as-new payload (Temporal's limit is 2 MB). */
    transcriptBytes: 1024 * 1024,
    /** One append's entries as JSON. */
    appendBytes: 256 * 1024,
    /** A tool result as the model sees it: a longer one is cut, with a note saying so. */
    toolResultChars: 16 * 1024,
    /** A model answer's text kept in the transcript. */
    answerChars: 64 * 1024,
    /** A steer's text (CONTRACT: `steerTask`), in bytes. */
    steerBytes: 8 * 1024,
    /** Steers waiting for the agent's next model call. */
    pendingSteers: 16,
    /** History events before the journal continues as new (each step is an update). */
    continueAsNewEvents: 2_000,
    /** A journal nobody wrote to for this long closes (a later attempt then starts afresh). */
    idleMs: 20 * 24 * 3600_000,
};
