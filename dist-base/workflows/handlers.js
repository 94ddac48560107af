"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.messageRules = messageRules;
exports.registerHandlers = registerHandlers;
/**
 * The run's message handlers: one per entry of the message table (messages.ts), each mapped here to
 * the rule of the run it calls. Queries answer from the run's views, updates validate before they
 * reach history and answer with a verdict, signals apply or are recorded as rejected. A
 * TeamControlError reaches the client as the update's failure; anything else is a bug.
 */
const workflow_1 = require("@temporalio/workflow");
const control_1 = require("../plan/requests/control");
const caller_1 = require("../plan/requests/caller");
const governance_1 = require("../team/governance");
const iso_times_1 = require("./iso-times");
const messages_1 = require("./messages");
const agents_1 = require("./agents");
const stop_channel_1 = require("./stop-channel");
/** Each message mapped to the run's rule; the views that hold timestamps get their ISO twins here. */
function messageRules(run, now, ledger) {
    return {
        status: () => (0, iso_times_1.withIsoTimes)(run.status(now())),
        tasks: (query) => (0, iso_times_1.withIsoTimes)(run.tasksPage(query ?? {})),
        activeClaims: () => (0, iso_times_1.withIsoTimes)(run.activeClaims()),
        adjudications: () => (0, iso_times_1.withIsoTimes)(run.adjudicationsView()),
        budget: () => run.budgetView(now()),
        events: (query) => (0, iso_times_1.withIsoTimes)(run.eventsView(query ?? {})),
        members: () => run.membersView(),
        messages: (query) => run.messagesView(query ?? {}),
        sendMessage: {
            validate: (request) => run.validateSendMessage(request),
            apply: (request) => run.sendMessage(request, now()),
            sentBy: (request) => ({ key: request.from, fencingToken: request.fencingToken }),
        },
        readInbox: {
            validate: (request) => run.validateReadInbox(request),
            apply: (request) => run.readInbox(request, now()),
            sentBy: (request) => ({ key: request.key, fencingToken: request.fencingToken }),
        },
        // The signal forms: a request that cannot apply is recorded as `control:rejected`, never thrown.
        signalInterrupt: (request) => {
            run.interrupt(request, now());
        },
        signalAbort: (request) => {
            run.abort(request, now());
        },
        interrupt: {
            validate: (request) => run.validateInterrupt(request),
            apply: (request) => run.interrupt(request, now()),
        },
        abort: { validate: (request) => run.validateAbort(request), apply: (request) => run.abort(request, now()) },
        adjudicate: {
            validate: (request) => run.validateAdjudicate(request),
            apply: (request) => run.adjudicate(request, now()),
        },
        tightenBudget: {
            validate: (request) => run.validateTightenBudget(request),
            apply: (request) => {
                const before = run.wallDeadline();
                const verdict = run.tightenBudget(request, now());
                const after = run.wallDeadline();
                if (after !== null && (before === null || after < before))
                    armWallClock(run, after);
                return verdict;
            },
        },
        addTasks: {
            validate: (request) => run.validateAddTasks(request),
            apply: (request) => run.addTasks(request, now()),
            sentBy: (request) => ({ key: request.parent ?? '', fencingToken: request.fencingToken }),
        },
        extendReservation: {
            validate: (request) => run.validateExtendReservation(request),
            apply: (request) => extendReservation(run, request, now(), ledger),
            sentBy: (request) => ({ key: request.key, fencingToken: request.fencingToken }),
        },
        steer: (0, agents_1.steerRule)(run, now),
    };
}
/** The run grants first (so two asks cannot both take its last tokens), then the ledger; its refusal undoes it. */
async function extendReservation(run, request, now, ledger) {
    const before = run.activeClaims().find((claim) => claim.key === request.key);
    const verdict = run.extendReservation(request, now);
    if (!ledger || !before)
        return verdict;
    const extension = { tokens: request.tokens ?? 0, usd: request.usd ?? 0 };
    const refused = await ledger.extend(before.leaseId, extension);
    if (!refused)
        return verdict;
    run.withdrawExtension(request.key, before.fencingToken, extension);
    throw new control_1.TeamControlError(refused.reason, `extendReservation: ${refused.message}`);
}
/**
 * tightenBudget brought the wall-clock deadline nearer (or set one): a timer of its own marks the run then (the
 * loop wakes), as the one armed at the start does. A timer for a later deadline finds the run marked already.
 */
function armWallClock(run, deadline) {
    if (deadline <= Date.now())
        return;
    void (0, workflow_1.sleep)(Math.max(1, deadline - Date.now())).then(() => run.wallExpired(Date.now()));
}
function registerHandlers(run, ledger) {
    const now = () => Date.now();
    // A TeamControlError must reach the client as the update's failure, never fail the workflow task.
    const failure = (err) => 
    // The code leads the message too: the Web UI shows an update's failure message, not its type.
    err instanceof control_1.TeamControlError ? workflow_1.ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code) : err;
    const asFailure = (check) => {
        try {
            return check();
        }
        catch (err) {
            throw failure(err);
        }
    };
    const asFailureLater = async (answer) => {
        try {
            return await answer;
        }
        catch (err) {
            throw failure(err);
        }
    };
    const confirmations = new governance_1.AttemptConfirmations();
    // The validator's extra check for a request that carries an attempt's proof (team/governance.ts).
    const checkProof = (request, message) => asFailure(() => confirmations.check((0, caller_1.callerOf)(request, message), message));
    /**
     * A request with an attempt's proof is the task's only once the worker it names confirms it;
     * the request is then checked again, as the attempt may have settled meanwhile.
     */
    const confirmed = async (request, message, key, fencingToken) => {
        const { attempt } = (0, caller_1.callerOf)(request, message);
        if (!attempt)
            return;
        confirmations.begin(attempt);
        let yes = false;
        try {
            const { workflowId } = (0, workflow_1.workflowInfo)();
            yes = await (0, stop_channel_1.confirmAttemptRequest)(attempt, { workflowId, key, fencingToken: Number(fencingToken), message });
        }
        finally {
            confirmations.end();
        }
        if (!yes) {
            throw workflow_1.ApplicationFailure.nonRetryable(`forbidden: ${message}: could not confirm the request came from the attempt of "${key}" ` +
                `(its worker did not vouch for nonce ${attempt.nonce})`, 'forbidden');
        }
    };
    // The worker's own signal, not the contract's: it has no entry in the table and no description.
    (0, workflow_1.setHandler)(stop_channel_1.attemptRunningSignal, (announcement) => {
        run.attemptsRunning(announcement);
    });
    (0, workflow_1.setHandler)(agents_1.agentStepsSignal, (steps) => {
        run.recordAgentSteps(steps, now());
    });
    const rules = messageRules(run, now, ledger);
    const table = Object.entries(messages_1.TEAM_RUN_MESSAGES);
    for (const [method, { definition, description }] of table) {
        if (definition.type === 'query') {
            (0, workflow_1.setHandler)(definition, rules[method], { description });
        }
        else if (definition.type === 'signal') {
            (0, workflow_1.setHandler)(definition, rules[method], { description });
        }
        else {
            const { validate, apply, sentBy } = rules[method];
            // Only the attempt's own messages name who sent them (sentBy), so the name is one of AttemptMessage.
            const message = definition.name;
            const validator = (request) => {
                asFailure(() => validate(request));
                if (sentBy)
                    checkProof(request, message);
            };
            const handler = sentBy
                ? async (request) => {
                    const { key, fencingToken } = sentBy(request);
                    await confirmed(request, message, key, fencingToken);
                    const answer = asFailure(() => apply(request));
                    // Only a rule that asks elsewhere waits here: the others answer in the same step as before.
                    return answer instanceof Promise ? asFailureLater(answer) : answer;
                }
                : (request) => asFailure(() => apply(request));
            (0, workflow_1.setHandler)(definition, handler, { validator, description });
        }
    }
}
