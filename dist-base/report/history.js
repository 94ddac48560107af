"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readHistories = readHistories;
const common_1 = require("@temporalio/common");
const proto_1 = require("../sdk/proto");
const interface_1 = require("../activities/interface");
const foreign_activity_1 = require("../team/foreign-activity");
const agent_steps_1 = require("./agent-steps");
const failures = new common_1.DefaultFailureConverter();
function decode(payload) {
    if (!payload)
        return undefined;
    try {
        return common_1.defaultPayloadConverter.fromPayload(payload);
    }
    catch {
        return undefined;
    }
}
const first = (payloads) => decode(payloads?.payloads?.[0]);
function failureOf(failure) {
    return failure ? failures.failureToError(failure, common_1.defaultPayloadConverter) : null;
}
const text = (value) => (typeof value === 'string' ? value : null);
/** Decodes the histories of one team run, oldest run first (several when it continued as new). */
/** `workflowId`: the run's, which a compact attempt input leaves out (its lease id names it). */
function readHistories(histories, workflowId = '') {
    const facts = {
        plan: null,
        startedAt: 0,
        close: null,
        attempts: [],
        control: [],
        steps: [],
        stepsDropped: 0,
    };
    histories.forEach((history, runIndex) => {
        const scheduled = new Map();
        const updates = new Map();
        for (const event of history.events ?? []) {
            const at = (0, proto_1.tsToMs)(event.eventTime);
            readEvent(event, at, { runIndex, workflowId }, facts, scheduled, updates);
        }
    });
    return facts;
}
function readEvent(event, at, { runIndex, workflowId }, facts, scheduled, updates) {
    const attemptOf = (id) => scheduled.get(String(id));
    if (event.workflowExecutionStartedEventAttributes && runIndex === 0) {
        facts.startedAt = at;
        const input = first(event.workflowExecutionStartedEventAttributes.input);
        if (input && 'tasks' in input)
            facts.plan = input;
        return;
    }
    const s = event.activityTaskScheduledEventAttributes;
    if (s) {
        const input = attemptInput(first(s.input), s, workflowId);
        if (!input)
            return;
        const attempt = {
            input,
            runIndex,
            scheduledEventId: Number(event.eventId ?? 0),
            activityId: s.activityId ?? `${input.taskKey}#${input.fencingToken}`,
            summary: decode(event.userMetadata?.summary) ?? null,
            scheduledAt: at,
            startedAt: null,
            worker: null,
            cancelRequestedAt: null,
            end: null,
        };
        scheduled.set(String(event.eventId), attempt);
        facts.attempts.push(attempt);
        return;
    }
    if (event.activityTaskStartedEventAttributes) {
        const attempt = attemptOf(event.activityTaskStartedEventAttributes.scheduledEventId);
        // The server writes this event when the attempt closes, stamped with the time it started.
        if (attempt) {
            attempt.startedAt = at;
            attempt.worker = event.activityTaskStartedEventAttributes.identity ?? attempt.worker;
        }
        return;
    }
    if (event.activityTaskCancelRequestedEventAttributes) {
        const attempt = attemptOf(event.activityTaskCancelRequestedEventAttributes.scheduledEventId);
        if (attempt)
            attempt.cancelRequestedAt = at;
        return;
    }
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) {
        const attempt = attemptOf(completed.scheduledEventId);
        if (attempt?.input.executor.kind === 'activity') {
            // A foreign activity's result is its output, or an `{ output, usage }` envelope.
            const outcome = (0, foreign_activity_1.foreignResultOutcome)(first(completed.result));
            attempt.end = {
                kind: 'completed',
                at,
                usage: ('usage' in outcome ? outcome.usage : null) ?? null,
                worker: completed.identity ?? null,
            };
            return;
        }
        const result = first(completed.result);
        if (attempt) {
            attempt.end = {
                kind: 'completed',
                at,
                usage: result?.usage ?? null,
                worker: result?.workerIdentity ?? completed.identity ?? null,
                ...printed(result),
            };
        }
        return;
    }
    const failed = event.activityTaskFailedEventAttributes;
    if (failed) {
        const attempt = attemptOf(failed.scheduledEventId);
        const error = failureOf(failed.failure);
        const evidence = error instanceof common_1.ApplicationFailure ? error.details?.[0] : undefined;
        if (attempt) {
            attempt.end = {
                kind: 'failed',
                at,
                type: error instanceof common_1.ApplicationFailure ? (error.type ?? null) : null,
                message: error?.message ?? 'failed',
                usage: evidence?.usage ?? null,
                worker: evidence?.workerIdentity ?? failed.identity ?? null,
                ...printed(evidence),
            };
        }
        return;
    }
    const timedOut = event.activityTaskTimedOutEventAttributes;
    if (timedOut) {
        const attempt = attemptOf(timedOut.scheduledEventId);
        const error = failureOf(timedOut.failure);
        const timeout = error instanceof common_1.TimeoutFailure ? error : error?.cause instanceof common_1.TimeoutFailure ? error.cause : null;
        const heartbeat = timeout?.lastHeartbeatDetails;
        if (attempt) {
            attempt.end = {
                kind: 'timed-out',
                at,
                timeoutType: String(timeout?.timeoutType ?? 'UNKNOWN'),
                worker: heartbeat?.workerIdentity ?? attempt.worker,
            };
        }
        return;
    }
    const canceled = event.activityTaskCanceledEventAttributes;
    if (canceled) {
        const attempt = attemptOf(canceled.scheduledEventId);
        const evidence = first(canceled.details);
        if (attempt) {
            attempt.end = {
                kind: 'cancelled',
                at,
                usage: evidence?.usage ?? null,
                worker: evidence?.workerIdentity ?? canceled.identity ?? null,
                ...printed(evidence),
            };
        }
        return;
    }
    const signaled = event.workflowExecutionSignaledEventAttributes;
    // A worker telling the run where its long attempts run (`attemptRunning`) is plumbing, not a control message.
    if (signaled?.signalName === interface_1.ATTEMPT_RUNNING_SIGNAL)
        return;
    // An agent's steps are drawn on the timeline, not listed as control.
    if (signaled?.signalName === interface_1.AGENT_STEPS_SIGNAL) {
        const steps = (0, agent_steps_1.agentStepsOf)(first(signaled.input), at);
        const room = Math.max(0, agent_steps_1.REPORT_STEPS_MAX - facts.steps.length);
        facts.steps.push(...steps.slice(0, room));
        facts.stepsDropped += Math.max(0, steps.length - room);
        return;
    }
    if (signaled) {
        facts.control.push(controlRecord('signal', signaled.signalName ?? '?', first(signaled.input), at, signaled.identity ?? null));
        return;
    }
    const accepted = event.workflowExecutionUpdateAcceptedEventAttributes;
    if (accepted) {
        const request = accepted.acceptedRequest;
        const record = controlRecord('update', request?.input?.name ?? '?', first(request?.input?.args), at, request?.meta?.identity ?? null);
        updates.set(String(event.eventId), record);
        facts.control.push(record);
        return;
    }
    const updated = event.workflowExecutionUpdateCompletedEventAttributes;
    if (updated) {
        const record = updates.get(String(updated.acceptedEventId));
        if (record) {
            const failure = failureOf(updated.outcome?.failure);
            record.verdict = failure ? `failed: ${failure.message}` : verdictOf(first(updated.outcome?.success));
        }
        return;
    }
    const cancelRequested = event.workflowExecutionCancelRequestedEventAttributes;
    if (cancelRequested) {
        facts.control.push({
            at,
            via: 'workflow',
            name: 'cancel',
            actor: null,
            identity: cancelRequested.identity ?? null,
            key: null,
            fencingToken: null,
            summary: `workflow cancellation requested (= ` + `abortRun)${cancelRequested.cause ? `: ${cancelRequested.cause}` : ''}`,
            verdict: null,
        });
        return;
    }
    const terminated = event.workflowExecutionTerminatedEventAttributes;
    if (terminated) {
        facts.control.push({
            at,
            via: 'workflow',
            name: 'terminate',
            actor: null,
            identity: terminated.identity ?? null,
            key: null,
            fencingToken: null,
            summary: `workflow terminated${terminated.reason ? `: ${terminated.reason}` : ''}`,
            verdict: null,
        });
        facts.close = { kind: 'terminated', at, message: terminated.reason ?? 'terminated' };
        return;
    }
    readClose(event, at, facts);
}
/** The logs and links an attempt's result or evidence carries, checked: history is input like any other. */
function printed(carrier) {
    const logs = carrier?.logs;
    const ok = logs && typeof logs === 'object' && typeof logs.stdout === 'string' && typeof logs.stderr === 'string';
    // The report renders links as anchors: only plain http(s) URLs, so a history never carries a script into it.
    const safe = (l) => !!l &&
        typeof l.url === 'string' &&
        l.url.length <= 2_048 &&
        /^https?:\/\/\S+$/i.test(l.url);
    const links = Array.isArray(carrier?.links)
        ? carrier.links
            .filter(safe)
            .slice(0, 20)
            .map((l) => ({ url: l.url, ...(typeof l.label === 'string' ? { label: l.label.slice(0, 200) } : {}) }))
        : [];
    return {
        logs: ok
            ? {
                stdout: logs.stdout,
                stderr: logs.stderr,
                stdoutBytes: typeof logs.stdoutBytes === 'number' ? logs.stdoutBytes : logs.stdout.length,
                stderrBytes: typeof logs.stderrBytes === 'number' ? logs.stderrBytes : logs.stderr.length,
            }
            : null,
        links,
    };
}
function readClose(event, at, facts) {
    const completed = event.workflowExecutionCompletedEventAttributes;
    if (completed) {
        const result = first(completed.result);
        if (result)
            facts.close = { kind: 'completed', at, result };
        return;
    }
    if (event.workflowExecutionFailedEventAttributes) {
        const error = failureOf(event.workflowExecutionFailedEventAttributes.failure);
        facts.close = { kind: 'failed', at, message: error?.message ?? 'failed' };
    }
    else if (event.workflowExecutionCanceledEventAttributes) {
        const result = first(event.workflowExecutionCanceledEventAttributes.details);
        facts.close = { kind: 'cancelled', at, message: 'cancelled', result: result && 'status' in result ? result : null };
    }
    else if (event.workflowExecutionTimedOutEventAttributes) {
        facts.close = { kind: 'timed-out', at, message: 'workflow timed out' };
    }
}
function controlRecord(via, name, payload, at, identity) {
    const fields = (payload && typeof payload === 'object' ? payload : {});
    const key = text(fields.key);
    const fencingToken = typeof fields.fencingToken === 'number'
        ? fields.fencingToken
        : fields.fencingToken
            ? Number(fields.fencingToken)
            : null;
    const reason = text(fields.reason);
    let summary;
    if (name === 'interruptTask')
        summary = `interrupt ${key ?? '?'} (token ${fencingToken ?? '?'})`;
    else if (name === 'abortRun')
        summary = `abort the run${fields.requireAdjudication === false ? ' (no adjudication)' : ''}`;
    else if (name === 'adjudicate')
        summary = `${text(fields.decision) ?? '?'} ${key ?? '?'} (decision ${text(fields.decisionId) ?? '?'})`;
    else if (name === 'sendMessage')
        summary =
            `message ${text(fields.from) ?? '?'} ` +
                `→ ${text(fields.to) ?? '?'}${text(fields.subject) ? `: ${text(fields.subject)}` : ''}`;
    else if (name === 'steerTask')
        summary = `steer ${key ?? '?'}: ${(text(fields.text) ?? '').slice(0, 120)}`;
    else if (name === 'readInbox')
        summary = `${key ?? '?'} reads its inbox${fields.peek === true ? ' (peek)' : ''}`;
    else
        summary = name;
    if (reason)
        summary += `: ${reason}`;
    // A message is drawn on its recipient's row (or its sender's, for a broadcast or the coordinator).
    const row = name === 'sendMessage'
        ? ([text(fields.to), text(fields.from)].find((k) => k && k !== '*' && k !== 'coordinator') ?? null)
        : key;
    return { at, via, name, actor: text(fields.actor), identity, key: row, fencingToken, summary, verdict: null };
}
function verdictOf(value) {
    const verdict = (value && typeof value === 'object' ? value : {});
    if (verdict.ok === true)
        return verdict.idempotent ? 'ok (idempotent)' : 'ok';
    if (verdict.ok === false)
        return `refused: ${text(verdict.reason) ?? 'unknown'}`;
    return 'ok';
}
/**
 * The attempt an activity of the history is, or null for one that is no attempt (a ledger's).
 * An `activity` task's attempt is the foreign activity itself: its argument has no executor,
 * which is told from its type and queue.
 */
function attemptInput(input, scheduled, workflowId) {
    if (!input || typeof input !== 'object')
        return null;
    if ('executor' in input && input.workflowId === undefined) {
        // A compact runTask input: its activity id names the task and token. The lease's pace is not read here.
        const activity = { workflowId, activityId: scheduled.activityId ?? '' };
        try {
            return (0, interface_1.expandRunTaskInput)(input, activity, { heartbeatEveryMs: 0, announceAfterMs: 0 });
        }
        catch {
            return null;
        }
    }
    if (scheduled.activityId !== `${input.taskKey}#${input.fencingToken}`)
        return null;
    if ('executor' in input)
        return input;
    return {
        ...input,
        title: input.taskKey,
        executor: {
            kind: 'activity',
            activityType: scheduled.activityType?.name ?? '',
            taskQueue: scheduled.taskQueue?.name ?? '',
        },
    };
}
