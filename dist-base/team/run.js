"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.TeamRun = exports.MAX_TASKS_PAGE = void 0;
const schema_1 = require("../plan/schema");
const additions = __importStar(require("./additions"));
const agents = __importStar(require("./agents"));
const budget_1 = require("./budget");
const claims_1 = require("./claims");
const context_1 = require("./context");
const decisions = __importStar(require("./decisions"));
const extensions = __importStar(require("./extensions"));
const messaging = __importStar(require("./messaging"));
const settlement_1 = require("./settlement");
const takeover = __importStar(require("./takeover"));
const tighten = __importStar(require("./tighten"));
const task_state_1 = require("./task-state");
const handover = __importStar(require("./handover"));
const lifecycle = __importStar(require("./lifecycle"));
/** The most task views one `tasks` query returns. */
exports.MAX_TASKS_PAGE = 2_000;
class TeamRun {
    run;
    constructor(snapshot) {
        this.run = new context_1.RunContext(snapshot);
    }
    static start(plan, workflowId, now) {
        const run = new TeamRun({
            plan,
            workflowId,
            startedAt: now,
            tasks: plan.tasks.map((spec) => (0, task_state_1.newTaskState)(spec.key, spec.dependsOn.length ? 'blocked' : 'ready', now)),
            budget: budget_1.Budget.create(plan.budget).snapshot(),
            adjudications: [],
            decisions: {},
            abort: null,
            closed: null,
            cancelRequestedAt: null,
            executions: 0,
            maxConcurrent: 0,
            events: { nextSeq: 1, events: [] },
        });
        run.record('run:start', now, { name: plan.name, tasks: plan.tasks.length, teammates: plan.teammates });
        return run;
    }
    snapshot() {
        return this.run.snapshot();
    }
    /** Bumped on every change, so the workflow can wait for "something happened". */
    get version() {
        return this.run.version;
    }
    get workflowId() {
        return this.run.workflowId;
    }
    get startedAt() {
        return this.run.startedAt;
    }
    // ---- the workflow's loop ----------------------------------------------------------------
    /** How the run asks whether its history has a rule change (Temporal's `patched`), so older histories replay. */
    usePatches(patched) {
        this.run.patched = patched;
    }
    claim(now) {
        return (0, claims_1.claim)(this.run, now);
    }
    settle(key, fencingToken, outcome, now) {
        (0, settlement_1.settle)(this.run, key, fencingToken, outcome, now);
    }
    /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
    drainCancellations() {
        return this.run.leases.drainCancellations();
    }
    /** Stops the workflow must send now, one per worker stop queue (after `drainCancellations`). */
    drainStops() {
        return this.run.leases.drainStops();
    }
    /** Running attempts announce their worker's stop queue (`attemptRunning`); returns how many applied. */
    attemptsRunning(payload) {
        const { applied, stopsQueued } = this.run.leases.announce(payload);
        if (stopsQueued > 0)
            this.run.touch();
        return applied;
    }
    /** An agent attempt's steps, reported by its worker (`agentSteps`): events, and which turn it is in. */
    recordAgentSteps(payload, now) {
        return agents.recordSteps(this.run, payload, now);
    }
    /** Checks a steer (`steerTask`); answers the request with the running attempt's fencing token. */
    validateSteer(payload) {
        return agents.validateSteer(this.run, payload);
    }
    steered(request, fencingToken, turn, now) {
        agents.steered(this.run, request, fencingToken, turn, now);
    }
    /** Where a running agent is (its turn and last tool), if its worker reported a step of this attempt. */
    agentProgress(key, fencingToken) {
        const progress = this.run.agents.get(key);
        return progress?.fencingToken === fencingToken ? progress : undefined;
    }
    /** True when the run may continue as new now: nothing in flight, or only attempts it can carry (handover.ts). */
    mayHandOver() {
        return handover.mayCarry(this.run.leases.values(), this.ledgerId !== null);
    }
    /** The `handOverAttempts` to send before continuing as new with attempts in flight, one per worker queue. */
    handOverRequests() {
        return handover.handOverRequests(this.run.leases.values());
    }
    /** Attempts this run's snapshot carried in, for the workflow to adopt. */
    adoptions() {
        return handover.adoptions(this.run);
    }
    expireApprovals(now) {
        decisions.expireApprovals(this.run, now);
    }
    drainIdleHooks() {
        return messaging.drainIdleHooks(this.run);
    }
    hookEnded(hook, outcome, now) {
        messaging.hookEnded(this.run, hook, outcome, now);
    }
    /** Records an event from the workflow shell (e.g. a continue-as-new boundary). */
    record(type, now, fields = {}) {
        this.run.events.record(type, now, fields);
    }
    /**
     * An attempt began or ended a wait for its shared ledger's recovery (`ledger:waiting`, `ledger:admitted`): the
     * event says why it has not started, and the loop wakes to publish it.
     */
    ledgerWait(phase, fields, now) {
        this.run.events.record(`ledger:${phase}`, now, fields);
        this.run.touch();
    }
    wallDeadline() {
        return this.run.wallDeadline();
    }
    wallExpired(now) {
        this.run.wallExpired(now);
    }
    phase() {
        return this.run.phase();
    }
    /**
     * The run begins to wait: for what, and until when (lifecycle.ts). Waiting on adjudication only
     * starts that wait's clock, kept in the snapshot; a run handing over waits for its attempts only.
     */
    beginWait(now, handingOver) {
        return lifecycle.beginWait(this.run, now, handingOver);
    }
    /** Nobody decided in time: the run closes `unresolved` with its adjudications still pending. */
    closeUnresolved(now) {
        lifecycle.closeUnresolved(this.run, now);
    }
    finish(now) {
        return lifecycle.finish(this.run, now);
    }
    /** True once Temporal's cancellation was requested: the run closes as Canceled, with its result as the details. */
    get cancelling() {
        return this.run.cancelRequestedAt !== null;
    }
    get activeCount() {
        return this.run.leases.size;
    }
    get pendingAdjudications() {
        return this.run.pendingAdjudications;
    }
    /** The shared ledger the plan names (`budget.ledger`), if any. */
    get ledgerId() {
        return this.run.plan.budget.ledger ?? null;
    }
    /** History length at which the workflow hands the run over to a fresh workflow run. */
    get continueAsNewAfterEvents() {
        return this.run.plan.continueAsNewAfterEvents ?? schema_1.CONTINUE_AS_NEW_EVENTS.default;
    }
    // ---- what people send -------------------------------------------------------------------
    validateInterrupt(payload) {
        takeover.validateInterrupt(this.run, payload);
    }
    interrupt(payload, now) {
        return takeover.interrupt(this.run, payload, now);
    }
    validateAbort(payload) {
        takeover.validateAbort(this.run, payload);
    }
    abort(payload, now) {
        return takeover.abort(this.run, payload, now);
    }
    cancelRequested(now) {
        takeover.cancelRequested(this.run, now);
    }
    validateAdjudicate(payload) {
        return decisions.validateAdjudicate(this.run, payload);
    }
    adjudicate(payload, now) {
        return decisions.adjudicate(this.run, payload, now);
    }
    validateTightenBudget(payload) {
        return tighten.validateTightenBudget(this.run, payload);
    }
    tightenBudget(payload, now) {
        return tighten.tightenBudget(this.run, payload, now);
    }
    validateAddTasks(payload) {
        return additions.validateAddTasks(this.run, payload);
    }
    addTasks(payload, now) {
        return additions.addTasks(this.run, payload, now);
    }
    validateSendMessage(payload) {
        return messaging.validateSendMessage(this.run, payload);
    }
    sendMessage(payload, now) {
        return messaging.sendMessage(this.run, payload, now);
    }
    validateReadInbox(payload) {
        return messaging.validateReadInbox(this.run, payload);
    }
    readInbox(payload, now) {
        return messaging.readInbox(this.run, payload, now);
    }
    validateExtendReservation(payload) {
        return extensions.validateExtend(this.run, payload);
    }
    extendReservation(payload, now) {
        return extensions.extend(this.run, payload, now);
    }
    /** Gives back an extension the shared ledger refused after the run granted it. */
    withdrawExtension(key, fencingToken, extension) {
        extensions.withdraw(this.run, key, fencingToken, extension);
    }
    // ---- views (queries) --------------------------------------------------------------------
    state() {
        return lifecycle.state(this.run);
    }
    status(now) {
        return lifecycle.status(this.run, now);
    }
    stats() {
        return this.run.graph.stats();
    }
    budgetView(now) {
        return this.run.budget.view(now, this.run.startedAt);
    }
    /**
     * The `tasks` query: one page, at most MAX_TASKS_PAGE views, so an answer stays far below
     * Temporal's payload limit on any run; page on with `offset`.
     */
    tasksPage(query = {}) {
        return this.run.graph.tasksView({ ...query, limit: Math.min(query.limit ?? 1_000, exports.MAX_TASKS_PAGE) });
    }
    activeClaims() {
        return this.run.leases.claimsView();
    }
    adjudicationsView() {
        return this.run.adjudications.records;
    }
    eventsView(query = {}) {
        return this.run.events.page(query.after, query.limit);
    }
    messagesView(query = {}) {
        return this.run.mailbox.page(query);
    }
    membersView() {
        return this.run.members.view();
    }
    /** Tasks added during the run, in all. */
    get addedTasks() {
        return this.run.spawns.count;
    }
    spawnTree(maxParents = 20, maxChildren = 20) {
        return this.run.graph.spawnTree(maxParents, maxChildren);
    }
}
exports.TeamRun = TeamRun;
