"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tightenBudgetUpdate = exports.steerTaskUpdate = exports.extendReservationUpdate = exports.addTasksUpdate = exports.adjudicateUpdate = exports.abortRunUpdate = exports.interruptTaskUpdate = exports.abortRunSignal = exports.interruptTaskSignal = exports.readInboxUpdate = exports.sendMessageUpdate = exports.messagesQuery = exports.membersQuery = exports.eventsQuery = exports.budgetQuery = exports.adjudicationsQuery = exports.activeClaimsQuery = exports.tasksQuery = exports.statusQuery = exports.TEAM_RUN_MESSAGES = exports.ACTIVITY_TYPE = exports.WORKFLOW_TYPE = void 0;
const workflow_1 = require("@temporalio/workflow");
/**
 * The public names of CONTRACT.md, defined once for the workflow and every client, each typed by
 * the contract's named shapes (src/contract): the workflow's handlers must return them.
 */
exports.WORKFLOW_TYPE = 'teamRun';
exports.ACTIVITY_TYPE = 'runTask';
function query(name, description) {
    return { definition: (0, workflow_1.defineQuery)(name), description };
}
function signal(name, description) {
    return { definition: (0, workflow_1.defineSignal)(name), description };
}
function update(name, description, omitted) {
    // The request is required in the definition's type (the client's typed overloads refuse an optional one); a
    // payload-less request from the `temporal` CLI still reaches the handler, which takes none as `{}`.
    return { definition: (0, workflow_1.defineUpdate)(name), description, omitted };
}
/**
 * Every message a team run answers, declared once: the key is the handle's method (src/client/handle.ts), the
 * definition holds the name on the wire and the types, the description is what the Web UI lists. The workflow
 * registers a handler for each (handlers.ts, in this order), the handle gets a method for each, the CLI calls
 * those methods. Queries' answers carry an ISO twin beside each timestamp (`startedAtIso`), except `budget`,
 * `members` and `messages`.
 */
exports.TEAM_RUN_MESSAGES = {
    status: query('status', 'Progress, budget and pending adjudications'),
    tasks: query('tasks', 'Tasks, paged: { status?, offset?, limit? } (default limit 1000, at most 2000)'),
    activeClaims: query('activeClaims', 'Attempts holding a lease now, with the fencing token to interrupt them'),
    adjudications: query('adjudications', 'Adjudication records, pending (decision null) and decided'),
    budget: query('budget', 'Limits, used, reserved and remaining budget'),
    events: query('events', 'Run events after a sequence number: { after?, limit? }'),
    members: query('members', 'One row per teammate slot: { holder, state: idle|running|shutdown, currentTask, completed, failed, lastError, ' +
        'since }'),
    messages: query('messages', 'Mailbox messages held: { to?, after?, limit? } (at most 100); nextId continues'),
    /** Sends a mailbox message (update `sendMessage`); a refusal rejects with its code. */
    sendMessage: update('sendMessage', 'Send a mailbox message: { from, to: task key | teammate-<n> | coordinator | "*", subject?, body, ' +
        "fencingToken? (a task sending), actor?, attempt? (its worker's proof) }"),
    /** Reads a running task's inbox (update `readInbox`), advancing its cursor unless `peek`. */
    readInbox: update('readInbox', "Read a running task's inbox: { key, fencingToken, peek?, attempt? } (advances its cursor unless peek)"),
    /** Human takeover, fire and forget (signal `interruptTask`): a refusal is only a `control:rejected` event. */
    signalInterrupt: signal('interruptTask', 'Take over a running task: { key, fencingToken, requestId?, actor?, reason?, evidenceDigest? }'),
    /** Coordinator abort, fire and forget (signal `abortRun`). */
    signalAbort: signal('abortRun', 'Abort the run: { reason?, requestId?, actor?, requireAdjudication? }'),
    /** Human takeover of the attempt holding `fencingToken` (update `interruptTask`). */
    interrupt: update('interruptTask', 'Take over a running task and get the verdict: { key, fencingToken, requestId?, actor?, reason? }'),
    /** Coordinator abort (update `abortRun`). */
    abort: update('abortRun', 'Abort the run and get the number of attempts stopped: { reason?, requestId?, actor? }', {}),
    /** Decides a task in adjudication (update `adjudicate`); a refused decision rejects with the reason. */
    adjudicate: update('adjudicate', 'Decide a task awaiting adjudication: { key, decision: retry|accept|reject, decisionId, actor?, result? }'),
    /** Adds tasks to the running graph (update `addTasks`); a refusal rejects with its code and path. */
    addTasks: update('addTasks', 'Add tasks to the running graph: { tasks: [TaskSpec...], parent?, fencingToken?, requestId, actor?, attempt? }'),
    /** A running attempt asks for more budget (update `extendReservation`); a refusal rejects with the budget reason. */
    extendReservation: update('extendReservation', "A running attempt asks for more budget: { key, fencingToken, tokens?, usd?, attempt? (its worker's proof) }; " +
        'answers what the attempt holds now'),
    /** Guidance for a running agent before its next model call (update `steerTask`); a refusal rejects with its code. */
    steer: update('steerTask', 'Steer a running agent: { key, text (at most 8 KiB), fencingToken?, requestId?, actor? }; answers the ' +
        'model call (turn) it joins'),
    /** Lowers the run's limits while it runs (update `tightenBudget`); a loosening is refused `loosening_refused`. */
    tightenBudget: update('tightenBudget', 'Lower the budget while the run runs: { maxTasks?, maxTokens?, maxUsd?, maxWallMs?, requestId?, actor? }; a ' +
        'limit at or below what is used stops the run at once'),
};
// Each definition under the name code has always imported it by (`messages.statusQuery`).
exports.statusQuery = exports.TEAM_RUN_MESSAGES.status.definition;
exports.tasksQuery = exports.TEAM_RUN_MESSAGES.tasks.definition;
exports.activeClaimsQuery = exports.TEAM_RUN_MESSAGES.activeClaims.definition;
exports.adjudicationsQuery = exports.TEAM_RUN_MESSAGES.adjudications.definition;
exports.budgetQuery = exports.TEAM_RUN_MESSAGES.budget.definition;
exports.eventsQuery = exports.TEAM_RUN_MESSAGES.events.definition;
exports.membersQuery = exports.TEAM_RUN_MESSAGES.members.definition;
exports.messagesQuery = exports.TEAM_RUN_MESSAGES.messages.definition;
exports.sendMessageUpdate = exports.TEAM_RUN_MESSAGES.sendMessage.definition;
exports.readInboxUpdate = exports.TEAM_RUN_MESSAGES.readInbox.definition;
exports.interruptTaskSignal = exports.TEAM_RUN_MESSAGES.signalInterrupt.definition;
exports.abortRunSignal = exports.TEAM_RUN_MESSAGES.signalAbort.definition;
exports.interruptTaskUpdate = exports.TEAM_RUN_MESSAGES.interrupt.definition;
exports.abortRunUpdate = exports.TEAM_RUN_MESSAGES.abort.definition;
exports.adjudicateUpdate = exports.TEAM_RUN_MESSAGES.adjudicate.definition;
exports.addTasksUpdate = exports.TEAM_RUN_MESSAGES.addTasks.definition;
exports.extendReservationUpdate = exports.TEAM_RUN_MESSAGES.extendReservation.definition;
exports.steerTaskUpdate = exports.TEAM_RUN_MESSAGES.steer.definition;
exports.tightenBudgetUpdate = exports.TEAM_RUN_MESSAGES.tightenBudget.definition;
