"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DETACHED = exports.LiveAttempt = void 0;
exports.attend = attend;
/**
 * The core of one attempt on a worker: the executor running (a `LiveAttempt`), and an activity
 * attending it (`attend`): heartbeating its lease, passing cancellation on, and turning what the
 * executor ended with into the attempt's result or failure (redacted, priced, bounded). runTask
 * starts an attempt and attends it; when its run continues as new, adoptAttempt attends the same
 * executor for the next run, so both answer alike.
 */
const activity_1 = require("@temporalio/activity");
const add_tasks_1 = require("../plan/requests/add-tasks");
const executors_1 = require("./executors");
const heartbeat_pace_1 = require("./heartbeat-pace");
const interface_1 = require("./interface");
const live_budget_1 = require("./live-budget");
const pricing_1 = require("./pricing");
/** An executor running one attempt, whichever activity (runTask, then adopts) attends it. */
class LiveAttempt {
    input;
    reporting;
    started = Date.now();
    /** What the executor obeys: its attendant's cancellation, or a stop delivered on the worker's stop queue. */
    stop = new AbortController();
    progress;
    /** Settles (never rejects) when the executor ends. */
    ended;
    /** The attendant's way to send a heartbeat at once (a stop asks the server for the attempt's cancellation). */
    beatNow = () => undefined;
    /** Null until the first activity attends: aborting a controller nobody listens to still costs a DOMException. */
    attendant = null;
    /** The attempt's live reservation, when its run counts spend and the gateway can reach the run. */
    budget;
    constructor(input, executor, 
    /** This attempt's reporting: its redactor knows the attempt's own secret too. */
    reporting, env, gate, tools, 
    /** Records the attempt's steps as run events (agent kinds); absent on a worker without a client. */
    emit) {
        this.input = input;
        this.reporting = reporting;
        const attemptGateway = gate?.access;
        if (gate && input.grant) {
            // Refused: the attempt is stopped like an interrupt, here and at once (its run is not asked to cancel it).
            this.budget = new live_budget_1.AttemptBudget(input.grant, reporting.config.prices, gate.extend, (refusal) => this.stop.abort(new Error(`${live_budget_1.BUDGET_EXCEEDED}: ${refusal.code}: ${refusal.message}`)));
            gate.attachBudget(this.budget);
        }
        // Called on the next microtask so that an executor throwing at once still settles `ended`.
        this.ended = Promise.resolve()
            .then(() => executor(input.executor, {
            signal: this.stop.signal,
            workflowId: input.workflowId,
            taskKey: input.taskKey,
            attempt: input.attempt,
            fencingToken: input.fencingToken,
            leaseId: input.leaseId,
            holder: input.holder,
            dependencyOutputs: input.dependencyOutputs,
            inbox: input.inbox ?? [],
            allowSpawn: input.allowSpawn === true,
            progress: (details) => {
                this.progress = details;
            },
            config: reporting.config,
            env,
            redactor: reporting.redactor,
            ...(attemptGateway ? { attemptGateway } : {}),
            ...(tools ? { tools } : {}),
            ...(this.budget ? { budget: this.budget } : {}),
            ...(emit ? { emit } : {}),
        }))
            .then((result) => ({ ok: true, result }), (error) => ({ ok: false, error }));
    }
    /** A new activity attends the attempt; the one before it (if any) lets go. Aborted when the next one attaches. */
    attach() {
        this.attendant?.abort();
        this.attendant = new AbortController();
        return this.attendant.signal;
    }
}
exports.LiveAttempt = LiveAttempt;
/** How `attend` ended when its activity let go of the attempt instead of reporting it. */
exports.DETACHED = Symbol('detached');
/**
 * Attends `live` for the activity of `ctx` until the executor ends (then reports it as runTask's
 * result or failure), or until the activity lets go: a later adopt attached, or the activity's run
 * is gone (`notFound`) while `handedOver()` says the next run will adopt the attempt. Anything
 * else that cancels the activity stops the executor, as before.
 */
async function attend(ctx, live, heartbeatEveryMs, handedOver) {
    const { reporting } = live;
    const { redactor, workerIdentity } = reporting;
    const attached = live.attach();
    const beat = () => ctx.heartbeat({
        workerIdentity,
        fencingToken: live.input.fencingToken,
        elapsedMs: Date.now() - live.started,
        progress: redactor.deep(live.progress),
    });
    const firstInMs = (0, heartbeat_pace_1.firstHeartbeatInMs)(heartbeatEveryMs, ctx.info.currentAttemptScheduledTimestampMs, Date.now());
    const heartbeats = (0, heartbeat_pace_1.paceHeartbeats)(beat, heartbeatEveryMs, firstInMs);
    live.beatNow = () => heartbeats.now();
    let letGo = () => undefined;
    const detached = new Promise((resolve) => (letGo = () => resolve(exports.DETACHED)));
    const cancelled = () => {
        if (ctx.cancellationDetails?.notFound && handedOver())
            letGo();
        else
            live.stop.abort(ctx.cancellationSignal.reason);
    };
    ctx.cancellationSignal.addEventListener('abort', cancelled, { once: true });
    attached.addEventListener('abort', letGo, { once: true });
    try {
        const ended = await Promise.race([live.ended, detached]);
        if (ended === exports.DETACHED)
            return exports.DETACHED;
        const evidence = (reported = {}, withOutput = true) => ({
            ...reportable(reported, redactor, reporting.config.prices, withOutput),
            workerIdentity,
        });
        // Refused more budget: stopped on the worker, and a failure for good whatever the executor returned.
        if (live.budget?.refusal)
            throw budgetExceeded(live.budget, evidence(ended.ok ? ended.result : asReported(ended.error)));
        if (!ended.ok) {
            const err = ended.error;
            if (live.stop.signal.aborted)
                throw await stopped(ctx, evidence(err instanceof executors_1.ExecutorError ? err : {}), heartbeats);
            throw failureOf(err, live.input, redactor, evidence);
        }
        // A result that races a cancellation is evidence for a human, never a success.
        if (live.stop.signal.aborted)
            throw await stopped(ctx, evidence(ended.result), heartbeats);
        return withoutWorker(bounded(ended.result, evidence(ended.result), () => evidence(ended.result, false), redactor));
    }
    finally {
        heartbeats.stop();
        ctx.cancellationSignal.removeEventListener('abort', cancelled);
        attached.removeEventListener('abort', letGo);
    }
}
function asReported(err) {
    return err instanceof executors_1.ExecutorError ? err : {};
}
/**
 * The failure of an attempt its run refused more budget: not retried, adjudicated, and charged what it
 * reported (what its live budget counted, when the executor handed over no usage of its own).
 */
function budgetExceeded(budget, evidence) {
    const { used, granted, refusal } = budget;
    const usage = evidence.usage ?? (used.tokens > 0 || used.usd > 0 ? { outputTokens: used.tokens, costUsd: used.usd } : undefined);
    return activity_1.ApplicationFailure.create({
        type: live_budget_1.BUDGET_EXCEEDED,
        message: `the run refused the attempt more budget (${refusal?.code ?? 'refused'}): it had used ${used.tokens} tokens ` +
            `and $${Math.round(used.usd * 1e6) / 1e6} of the ${granted.tokens} tokens and $${granted.usd} granted` +
            (refusal?.message ? `; ${refusal.message.slice(0, 300)}` : ''),
        nonRetryable: true,
        details: [{ ...evidence, ...(usage ? { usage } : {}) }],
    });
}
/**
 * A success names no worker: history records it (ActivityTaskStarted, ActivityTaskCompleted), and
 * the run keeps an attempt's worker only as evidence of a lease it lost or released, which a
 * failure's or cancellation's details still carry. 20-odd bytes of every attempt's history.
 */
function withoutWorker(result) {
    const { workerIdentity, ...rest } = result;
    return workerIdentity === undefined ? result : rest;
}
/** The attempt's result within its bounds (output size, tasks it asks to add), or the failure that says which. */
function bounded(result, reported, withoutOutput, redactor) {
    const size = reported.output === undefined ? 0 : Buffer.byteLength(JSON.stringify(reported.output));
    if (size > interface_1.MAX_OUTPUT_BYTES) {
        throw activity_1.ApplicationFailure.create({
            type: interface_1.FAILURE_TYPES.outputTooLarge,
            message: `task output is ${size} bytes, over the ${interface_1.MAX_OUTPUT_BYTES}-byte bound (outputs travel ` +
                `through history to dependents; store large results elsewhere and output a reference)`,
            nonRetryable: true,
            details: [withoutOutput()],
        });
    }
    if (!result.tasks?.length)
        return reported;
    const spawnSize = Buffer.byteLength(JSON.stringify(result.tasks));
    if (spawnSize > interface_1.MAX_SPAWN_BYTES || result.tasks.length > add_tasks_1.ADD_TASKS_LIMITS.maxTasks) {
        throw activity_1.ApplicationFailure.create({
            type: interface_1.FAILURE_TYPES.outputTooLarge,
            message: `the attempt asked to add ${result.tasks.length} task(s) in ${spawnSize} ` +
                `bytes, over the bound (${add_tasks_1.ADD_TASKS_LIMITS.maxTasks} tasks, ${interface_1.MAX_SPAWN_BYTES} ` +
                `bytes); add them in several requests with teamrun add-tasks`,
            nonRetryable: true,
            details: [withoutOutput()],
        });
    }
    // Redacted like everything else an attempt reports: a command it prints may hold a secret it read.
    return { ...reported, tasks: redactor.deep(result.tasks) };
}
/** What an executor threw, as the attempt's failure (redacted; its evidence in the details). */
function failureOf(err, input, redactor, evidence) {
    if (err instanceof activity_1.ApplicationFailure || err instanceof activity_1.CancelledFailure)
        return err;
    if (err instanceof executors_1.ExecutorError) {
        return activity_1.ApplicationFailure.create({
            type: err.type,
            message: redactor.text(err.message),
            nonRetryable: err.nonRetryable,
            details: [evidence(err)],
        });
    }
    return activity_1.ApplicationFailure.create({
        type: interface_1.FAILURE_TYPES.executorCrashed,
        message: redactor.text(`executor "${input.executor.kind}" threw: ${err?.message ?? String(err)}`),
        details: [evidence()],
    });
}
/** What an attempt reports, priced (each usage record on its own) and redacted; absent fields left out. */
function reportable(reported, redactor, prices, withOutput) {
    const usage = (0, pricing_1.priceUsage)(redactor.deep(reported.usage), prices);
    return {
        ...(withOutput && reported.output !== undefined ? { output: redactor.deep(reported.output) } : {}),
        ...(usage ? { usage } : {}),
        ...(reported.logs ? { logs: redactor.deep(reported.logs) } : {}),
        ...(reported.links?.length ? { links: redactor.deep(reported.links) } : {}),
        ...(reported.messages?.length ? { messages: redactor.deep(reported.messages) } : {}),
    };
}
/** How long a locally stopped attempt waits for the server to confirm its cancellation before it gives up waiting. */
const CANCEL_CONFIRM_MS = 10_000;
/**
 * The attempt was stopped from outside. A worker shutting down hands it back to be re-leased;
 * anything else (the workflow cancelled it, the server timed it out) is a cancellation. A stop
 * that came on the stop queue has already killed the executor; the attempt then reports as
 * cancelled once the heartbeat it sent brings the cancellation the run requested with the stop.
 */
async function stopped(ctx, evidence, heartbeats) {
    if (!ctx.cancellationSignal.aborted) {
        const deadline = Date.now() + CANCEL_CONFIRM_MS;
        while (!ctx.cancellationSignal.aborted && Date.now() < deadline) {
            heartbeats.now();
            await new Promise((resolve) => {
                const timer = setTimeout(resolve, 500);
                ctx.cancellationSignal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
            });
        }
    }
    const why = ctx.cancellationDetails;
    // Logged (with the activity id, `<key>#<token>`) because nobody
    // else hears a lost attempt: the server refuses what it reports.
    ctx.log.warn(why?.workerShutdown
        ? 'attempt released: the worker is shutting down, the task will be leased again'
        : why?.notFound || why?.timedOut
            ? 'attempt lost its lease: the server no longer has it ' +
                '(heartbeats stopped past the TTL); its result is discarded'
            : 'attempt cancelled by its run');
    if (why?.workerShutdown) {
        return activity_1.ApplicationFailure.create({
            type: interface_1.FAILURE_TYPES.workerShutdown,
            message: `worker ${evidence.workerIdentity} is shutting down; the attempt is released`,
            details: [evidence],
        });
    }
    return new activity_1.CancelledFailure('attempt cancelled', [evidence]);
}
