"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Attempts = void 0;
exports.outcomeOf = outcomeOf;
/**
 * The workflow side of an attempt: launch its activity (runTask on teamrun's queue, or a foreign
 * activity on its own) in a cancellation scope of its own, settle the run from what Temporal
 * reports, and cancel attempts the run stopped. What an outcome does to its task is team/'s.
 */
const workflow_1 = require("@temporalio/workflow");
const common_1 = require("@temporalio/common");
const interface_1 = require("../activities/interface");
const foreign_activity_1 = require("../team/foreign-activity");
const handover_1 = require("../team/handover");
const lease_pace_1 = require("../plan/lease-pace");
const foreign_activity_2 = require("./foreign-activity");
const stop_channel_1 = require("./stop-channel");
const run_ledger_1 = require("../ledger/run-ledger");
class Attempts {
    run;
    ledger;
    links;
    /** The scope of each task's live attempt, by task key. */
    scopes = new Map();
    constructor(run, ledger, links) {
        this.run = run;
        this.ledger = ledger;
        this.links = links;
    }
    launch(claim) {
        const { run, ledger } = this;
        const compact = (0, workflow_1.patched)(COMPACT_ATTEMPTS);
        const { runTask } = (0, workflow_1.proxyActivities)({
            activityId: claim.activityId,
            heartbeatTimeout: claim.ttlMs,
            startToCloseTimeout: (0, lease_pace_1.attemptTimeoutMs)(claim.executor, claim.ttlMs),
            retry: { maximumAttempts: 1 },
            cancellationType: workflow_1.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
            ...summaryOf(claim, compact),
        });
        const scope = new workflow_1.CancellationScope();
        this.scopes.set(claim.key, { fencingToken: claim.fencingToken, scope });
        const input = (compact ? compactInput : wholeInput)(claim, run.workflowId, ledger);
        const foreign = (0, foreign_activity_1.isForeignActivity)(claim);
        const attempt = () => 
        // An `activity` task's attempt goes to its own queue; teamrun's worker never receives it.
        foreign
            ? (0, foreign_activity_2.runForeignActivity)(claim, run.workflowId, longSummary(claim))
            : runTask(input).then((result) => ({ kind: 'completed', ...result }));
        void scope
            .run(() => (ledger ? ledger.admit(claim, attempt) : attempt()))
            .then((outcome) => this.settle(claim, outcome, claim), (err) => this.settle(claim, foreign ? (0, foreign_activity_1.boundForeignOutcome)(outcomeOf(err)) : outcomeOf(err), claim));
    }
    /**
     * Re-attaches to an attempt the run's snapshot carried (src/team/handover.ts): its worker runs it
     * on, and `adoptAttempt` on that worker's stop queue answers as its runTask would. Same activity
     * id, lease and cancellation as the attempt's runTask; interrupts and aborts reach it alike.
     */
    adopt(adoption) {
        const { key, attempt } = adoption;
        const { adoptAttempt } = (0, workflow_1.proxyActivities)({
            taskQueue: attempt.stopQueue,
            activityId: attempt.activityId,
            heartbeatTimeout: adoption.ttlMs,
            scheduleToStartTimeout: (0, handover_1.adoptWithinMs)(adoption.ttlMs),
            startToCloseTimeout: (0, lease_pace_1.attemptTimeoutMs)(adoption.executor, adoption.ttlMs),
            retry: { maximumAttempts: 1 },
            cancellationType: workflow_1.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
            summary: `${adoption.title} · attempt ${attempt.attempt} · token ${attempt.fencingToken} · ` +
                `carried from the previous run · ${attempt.holder}`,
        });
        const scope = new workflow_1.CancellationScope();
        this.scopes.set(key, { fencingToken: attempt.fencingToken, scope });
        const input = {
            workflowId: this.run.workflowId,
            taskKey: key,
            fencingToken: attempt.fencingToken,
            leaseId: attempt.leaseId,
            heartbeatEveryMs: adoption.heartbeatEveryMs,
        };
        const carried = { key, fencingToken: attempt.fencingToken };
        void scope
            .run(() => adoptAttempt(input))
            .then((result) => this.settle(carried, { kind: 'completed', ...result }), (err) => this.settle(carried, (0, handover_1.adoptOutcome)(outcomeOf(err), timedOut(err))));
    }
    /**
     * Cancels the attempts the run stopped; those that announced their worker's stop queue also get a stop there, at
     * once.
     */
    cancelStopped() {
        for (const { key, fencingToken } of this.run.drainCancellations()) {
            const attempt = this.scopes.get(key);
            if (attempt?.fencingToken === fencingToken)
                attempt.scope.cancel();
        }
        (0, stop_channel_1.sendStops)(this.run.drainStops());
    }
    /** `claim` is absent for an adopted attempt, which never holds a shared-ledger slot. */
    settle({ key, fencingToken }, outcome, claim) {
        this.links.remember(key, outcome);
        if (this.scopes.get(key)?.fencingToken === fencingToken)
            this.scopes.delete(key);
        this.run.settle(key, fencingToken, outcome, Date.now());
        if (claim)
            this.ledger?.settle(claim, outcome);
    }
}
exports.Attempts = Attempts;
/** Runs whose history began before compact attempt inputs send the whole input and the long summary (replay). */
const COMPACT_ATTEMPTS = 'teamrun-compact-attempts';
/** What the Web UI shows beside an attempt: its title where it says more than the activity id (`<key>#<token>`). */
function summaryOf(claim, compact) {
    if (!compact)
        return { summary: longSummary(claim) };
    return claim.title === claim.key ? {} : { summary: claim.title };
}
function longSummary(claim) {
    return (`${claim.title} · attempt ${claim.attempt} · token ${claim.fencingToken} · ` +
        `${claim.executor.kind} · ${claim.holder}`);
}
function wholeInput(claim, workflowId, ledger) {
    return {
        workflowId,
        taskKey: claim.key,
        title: claim.title,
        attempt: claim.attempt,
        fencingToken: claim.fencingToken,
        leaseId: claim.leaseId,
        holder: claim.holder,
        executor: claim.executor,
        dependencyOutputs: claim.dependencyOutputs,
        ...(claim.allowSpawn ? { allowSpawn: true } : {}),
        ...(ledger ? { ledger: ledger.lease(claim) } : {}),
        ...(claim.inbox ? { inbox: claim.inbox } : {}),
        heartbeatEveryMs: claim.heartbeatEveryMs,
        announceAfterMs: lease_pace_1.STOP_ANNOUNCE_AFTER_MS,
        grant: claim.grant,
    };
}
/** The whole input less what the worker derives (expandRunTaskInput): stored in history once per attempt. */
function compactInput(claim, workflowId, ledger) {
    const named = claim.activityId === (0, interface_1.attemptActivityId)(claim.key, claim.fencingToken);
    return {
        ...(named ? {} : { taskKey: claim.key, fencingToken: claim.fencingToken }),
        ...(claim.attempt === claim.fencingToken ? {} : { attempt: claim.attempt }),
        holder: claim.holder,
        executor: claim.executor,
        ...(claim.leaseId === (0, interface_1.leaseIdOf)(workflowId, claim.key, claim.fencingToken) ? {} : { leaseId: claim.leaseId }),
        ...(claim.title === claim.key ? {} : { title: claim.title }),
        ...(Object.keys(claim.dependencyOutputs).length ? { dependencyOutputs: claim.dependencyOutputs } : {}),
        ...(claim.allowSpawn ? { allowSpawn: true } : {}),
        ...(ledger ? { ledger: ledger.lease(claim) } : {}),
        ...(claim.inbox ? { inbox: claim.inbox } : {}),
        // What the attempt may spend before it asks for more: only when a limit applies (a run with none never asks).
        ...(claim.grant && (claim.grant.tokens !== null || claim.grant.usd !== null) ? { grant: claim.grant } : {}),
        ...(claim.heartbeatEveryMs === (0, lease_pace_1.defaultHeartbeatEveryMs)(claim.ttlMs)
            ? {}
            : { heartbeatEveryMs: claim.heartbeatEveryMs }),
    };
}
/** What the server puts in the details of an activity it cancelled before any worker started it. */
const ACTIVITY_NOT_STARTED = 'ACTIVITY_ID_NOT_STARTED';
function isEvidence(value) {
    return typeof value === 'object' && value !== null && typeof value.workerIdentity === 'string';
}
/** The server timed the activity out (before a worker picked it up, or since its last heartbeat). */
function timedOut(err) {
    return err instanceof workflow_1.ActivityFailure && err.cause instanceof workflow_1.TimeoutFailure;
}
/** Turns what Temporal reports for an attempt into an outcome the team rules understand. */
function outcomeOf(err) {
    if (err instanceof run_ledger_1.AttemptNotStarted)
        return { kind: 'not-started', reason: err.reason, message: err.message };
    const cause = err instanceof workflow_1.ActivityFailure ? err.cause : err;
    if (cause instanceof workflow_1.TimeoutFailure) {
        if (cause.timeoutType === common_1.TimeoutType.HEARTBEAT) {
            const details = cause.lastHeartbeatDetails;
            return { kind: 'lease-lost', workerIdentity: details?.workerIdentity };
        }
        return { kind: 'failed', message: `attempt timed out (${cause.timeoutType})`, nonRetryable: false };
    }
    if (cause instanceof workflow_1.CancelledFailure) {
        const evidence = cause.details?.[0];
        // Cancelled before its activity was scheduled (a bare CancelledFailure), or while it was still
        // scheduled (the server's details say ACTIVITY_ID_NOT_STARTED): no worker ever started it.
        // Anything else ran, whether or not it left evidence (a foreign activity may leave none).
        if (!(err instanceof workflow_1.ActivityFailure) || evidence === ACTIVITY_NOT_STARTED) {
            return { kind: 'not-started', reason: null, message: 'cancelled before a worker started the attempt' };
        }
        return { kind: 'cancelled', ...(isEvidence(evidence) ? evidence : {}) };
    }
    if (cause instanceof workflow_1.ApplicationFailure) {
        const evidence = cause.details?.[0];
        if (cause.type === interface_1.FAILURE_TYPES.workerShutdown)
            return { kind: 'released', ...evidence };
        return {
            kind: 'failed',
            message: cause.message,
            errorType: cause.type ?? undefined,
            nonRetryable: cause.nonRetryable === true,
            ...evidence,
        };
    }
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err), nonRetryable: false };
}
