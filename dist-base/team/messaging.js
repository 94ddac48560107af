"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateSendMessage = validateSendMessage;
exports.sendMessage = sendMessage;
exports.validateReadInbox = validateReadInbox;
exports.readInbox = readInbox;
exports.sendFromOutcome = sendFromOutcome;
exports.drainIdleHooks = drainIdleHooks;
exports.hookEnded = hookEnded;
const control_1 = require("../plan/requests/control");
const caller_1 = require("../plan/requests/caller");
const governance_1 = require("./governance");
const mailbox_1 = require("./mailbox");
/**
 * Every check of a `sendMessage` request, for the update's validator: a send refused here never reaches history, so
 * a sender retrying a full mailbox or a finished task costs the run nothing. Throws `TeamControlError`.
 */
function validateSendMessage(run, payload) {
    const request = checkSendMessage(run, payload);
    const to = run.graph.indexOf(request.to);
    if (to !== undefined && run.graph.isSettled(to)) {
        throw new control_1.TeamControlError('TEAM_MAILBOX_MESSAGE_INVALID', `sendMessage: to: task "${request.to}" has finished (${run.graph.tasks[to].status}) and reads no more messages`);
    }
    run.mailbox.checkRoom(run.mailbox.check(request));
    return request;
}
/**
 * The checks the update's handler repeats: all but the recipient's state and the mailbox's room, which the handler
 * left to sending when older histories were recorded, and must still leave to it for them to replay the same.
 */
function checkSendMessage(run, payload) {
    const caller = (0, caller_1.callerOf)(payload, 'sendMessage');
    const request = (0, mailbox_1.parseMailbox)(mailbox_1.SendMessageSchema, caller.request, 'sendMessage');
    const i = run.graph.indexOf(request.from);
    const asTask = request.fencingToken !== undefined || i !== undefined;
    if (asTask) {
        // A task sends as itself, with its live attempt's token: a stale attempt's word is refused.
        const attempt = run.leases.get(request.from);
        if (i === undefined || !attempt || attempt.fencingToken !== request.fencingToken) {
            throw new control_1.TeamControlError('stale_attempt', `sendMessage: "${request.from}" has no live attempt with fencing token ` +
                `${request.fencingToken ?? '(none)'}${attempt ? ` (the live one is ${attempt.fencingToken})` : ''}`);
        }
    }
    else {
        if (/^teammate-\d+$/.test(request.from) || request.from === mailbox_1.BROADCAST) {
            throw new control_1.TeamControlError('TEAM_MAILBOX_MESSAGE_INVALID', `sendMessage: from "${request.from}" is not a sender (a task key with its fencing token, "${mailbox_1.COORDINATOR}" or ` +
                `an operator)`);
        }
        (0, governance_1.checkActor)(run.plan, request.actor ?? (request.from === mailbox_1.COORDINATOR ? undefined : request.from), 'sendMessage');
    }
    run.mailbox.check(request);
    // Last, so a malformed message gets its own code whoever sends it.
    if (asTask)
        (0, governance_1.checkTaskClaim)(run.plan, caller, 'sendMessage');
    return request;
}
function sendMessage(run, payload, now) {
    const request = checkSendMessage(run, payload);
    run.clock = now;
    try {
        const message = run.mailbox.send(request, now);
        return { ok: true, id: message.id };
    }
    finally {
        run.touch();
    }
}
/** `readInbox`: the live attempt of `key` reads what waits for it. */
function validateReadInbox(run, payload) {
    const caller = (0, caller_1.callerOf)(payload, 'readInbox');
    const request = (0, control_1.parseControl)(mailbox_1.ReadInboxSchema, caller.request, 'readInbox');
    const attempt = run.leases.get(request.key);
    if (run.graph.indexOf(request.key) === undefined)
        throw new control_1.TeamControlError('not_found', `readInbox: no task "${request.key}"`);
    if (!attempt || attempt.fencingToken !== request.fencingToken) {
        throw new control_1.TeamControlError('stale_attempt', `readInbox: "${request.key}" has no live attempt with fencing token ` +
            `${request.fencingToken}${attempt ? ` (the live one is ${attempt.fencingToken})` : ''}`);
    }
    (0, governance_1.checkTaskClaim)(run.plan, caller, 'readInbox');
    return request;
}
function readInbox(run, payload, now) {
    const request = validateReadInbox(run, payload);
    run.clock = now;
    const attempt = run.leases.get(request.key);
    const messages = run.mailbox.deliver(request.key, attempt.holder, request.peek === true);
    run.touch();
    return { messages };
}
/**
 * The `::teamrun-message::` lines of the attempt that settled its task, sent as that task;
 * one that cannot be sent is recorded as `control:rejected` with its code.
 */
function sendFromOutcome(run, key, outcome, now) {
    const messages = 'messages' in outcome && Array.isArray(outcome.messages) ? outcome.messages : [];
    for (const raw of messages.slice(0, mailbox_1.MAILBOX_LIMITS.perAttempt)) {
        const { to, subject, body } = (typeof raw === 'object' && raw !== null ? raw : {});
        try {
            if (typeof to !== 'string' || (subject !== undefined && typeof subject !== 'string')) {
                throw new control_1.TeamControlError('TEAM_MAILBOX_MESSAGE_INVALID', 'sendMessage: a ::teamrun-message:: line needs "to" (a string), "body" and an optional string "subject"');
            }
            run.mailbox.send({ from: key, to, subject: subject?.slice(0, mailbox_1.MAILBOX_LIMITS.subjectChars), body }, now);
        }
        catch (err) {
            if (!(err instanceof control_1.TeamControlError))
                throw err;
            run.events.record('control:rejected', now, {
                message: 'sendMessage',
                key,
                reason: err.code,
                detail: err.message.slice(0, 300),
            });
        }
    }
}
/** Idle hooks to start now (`hooks.teammateIdle`), with the executor to run. */
function drainIdleHooks(run) {
    const executor = run.plan.hooks?.teammateIdle?.executor;
    const hooks = run.members.drainHooks();
    return executor ? hooks.map((hook) => ({ ...hook, executor })) : [];
}
/** A hook's end, on the record; it never touches a task. */
function hookEnded(run, hook, outcome, now) {
    run.events.record(outcome.ok ? 'hook:completed' : 'hook:failed', now, {
        hook: 'teammateIdle',
        holder: hook.member.holder,
        seq: hook.seq,
        ...(outcome.error ? { error: outcome.error.slice(0, 300) } : {}),
    });
    run.touch();
}
