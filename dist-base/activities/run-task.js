"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createActivities = createActivities;
exports.adoptingFor = adoptingFor;
const activity_1 = require("@temporalio/activity");
const handover_1 = require("../team/handover");
const attempt_runner_1 = require("./attempt-runner");
const heartbeat_pace_1 = require("./heartbeat-pace");
const interface_1 = require("./interface");
const lease_pace_1 = require("../plan/lease-pace");
const renewal_1 = require("../ledger/renewal");
const secrets_1 = require("./secrets");
const step_reporter_1 = require("./step-reporter");
/**
 * `runTask`: one attempt of one task. Its heartbeats are the lease: they run on their own
 * timer whatever the executor does, at the lease's pace, and none before the first is due (a
 * short attempt sends none). Cancellation arrives in the response to one, or, for an attempt
 * past `announceAfterMs` that told its run where it runs, at once through the worker's stop queue.
 * Such an attempt can also outlive its activity when its run continues as new: the next run
 * adopts it (`adoptAttempt`, see attempt-runner.ts and src/team/handover.ts).
 */
function createActivities(deps) {
    const env = deps.env ?? process.env;
    const reporting = reportingOf(deps);
    return {
        async runTask(sent) {
            const ctx = activity_1.Context.current();
            const ttlMs = ctx.info.heartbeatTimeoutMs ?? 30_000;
            // A compact input names no run: the activity's own workflow is its run (never absent for runTask).
            const activity = { workflowId: ctx.info.workflowExecution?.workflowId ?? '', activityId: ctx.info.activityId };
            const input = (0, interface_1.expandRunTaskInput)(sent, activity, {
                heartbeatEveryMs: (0, heartbeat_pace_1.defaultHeartbeatEveryMs)(ttlMs),
                announceAfterMs: lease_pace_1.STOP_ANNOUNCE_AFTER_MS,
            });
            const executor = deps.executors.get(input.executor.kind);
            if (!executor) {
                throw activity_1.ApplicationFailure.create({
                    type: interface_1.FAILURE_TYPES.executorNotEnabled,
                    message: `executor kind "${input.executor.kind}" is not enabled on ` +
                        `worker ${deps.workerIdentity} (enabled: ${[...deps.executors.keys()].join(', ')})`,
                    nonRetryable: true,
                });
            }
            // The gateway stays open while the executor runs, which may be past this activity (a handed-over attempt).
            // An agent's journal runs on the run's own queue, beside the run.
            const agent = input.executor.kind === 'agent';
            const gate = deps.gateway?.open(input, agent ? { journalQueue: ctx.info.taskQueue } : {});
            const attemptReporting = gate ? { ...reporting, redactor: gate.redactor } : reporting;
            const steps = deps.client ? (0, step_reporter_1.stepReporter)(deps.client, input) : undefined;
            const reported = steps ? (spec, c) => executor(spec, c).finally(() => steps.drain()) : executor;
            const live = new attempt_runner_1.LiveAttempt(input, reported, attemptReporting, env, gate, deps.tools, steps?.emit);
            if (gate)
                void live.ended.then(() => gate.close());
            const channel = deps.stops && input.announceAfterMs !== undefined ? deps.stops : undefined;
            const unregister = channel?.register(input.leaseId, () => {
                live.stop.abort(new Error('stopped by its run'));
                // The run cancelled the attempt in the same workflow task: the answer to this heartbeat says so.
                live.beatNow();
            }, 
            // A run with a shared ledger never hands its attempts over (the slot's renewal lives here).
            input.ledger ? undefined : { live, keepMs: (0, handover_1.adoptWithinMs)(ttlMs) + ADOPT_MARGIN_MS });
            const announcing = channel
                ? setTimeout(() => channel.announce(input.workflowId, input.taskKey, input.fencingToken), input.announceAfterMs)
                : undefined;
            const stopRenewing = input.ledger && deps.client ? (0, renewal_1.renewLedgerSlot)(deps.client, input.ledger) : undefined;
            try {
                const everyMs = input.heartbeatEveryMs ?? (0, heartbeat_pace_1.defaultHeartbeatEveryMs)(ttlMs);
                const handedOver = () => channel?.handedOver(input.leaseId) === true;
                const answer = await (0, attempt_runner_1.attend)(ctx, live, everyMs, handedOver);
                if (answer !== attempt_runner_1.DETACHED)
                    return answer;
                // Handed over: the executor runs on for the next run. This activity keeps its slot while it
                // does, so the worker never runs more executors than `maxConcurrentAttempts`.
                await live.ended;
                throw handedOverFailure();
            }
            finally {
                clearTimeout(announcing);
                unregister?.();
                stopRenewing?.();
            }
        },
    };
}
/** Past `adoptWithinMs`, a handed-over executor waits this much longer before it is stopped. */
const ADOPT_MARGIN_MS = 5_000;
/** Answers the old run's activity of an attempt a later run adopted: that run has it now; this answer goes nowhere. */
function handedOverFailure() {
    return new activity_1.CancelledFailure('attempt handed over to the run that continued this one');
}
function reportingOf(deps) {
    // Everything an attempt reports reaches history, read by all who can see the namespace: secrets never do.
    return {
        config: deps.config,
        workerIdentity: deps.workerIdentity,
        redactor: deps.redactor ?? (0, secrets_1.workerRedactor)(deps.config, deps.env ?? process.env),
    };
}
/**
 * How this worker attends an attempt the next run adopts (`adoptAttempt` on its stop queue): as
 * runTask did, heartbeating for the new run. It lets go in turn when that run continues as new.
 */
function adoptingFor(stops) {
    return async (ctx, live, input) => {
        let detached = false;
        try {
            const handedOver = () => stops.handedOver(input.leaseId);
            const answer = await (0, attempt_runner_1.attend)(ctx, live, input.heartbeatEveryMs, handedOver);
            detached = answer === attempt_runner_1.DETACHED;
            if (answer === attempt_runner_1.DETACHED)
                throw handedOverFailure();
            return answer;
        }
        finally {
            // A later adopt holds the attempt now: only the last one to attend it releases it.
            if (!detached)
                stops.release(input.leaseId, live);
        }
    };
}
