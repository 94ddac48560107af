"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunContext = void 0;
const bytes_1 = require("../plan/bytes");
const adjudications_1 = require("./adjudications");
const bounds_1 = require("./bounds");
const budget_1 = require("./budget");
const control_1 = require("../plan/requests/control");
const events_1 = require("./events");
const graph_1 = require("./graph");
const leases_1 = require("./leases");
const mailbox_1 = require("./mailbox");
const members_1 = require("./members");
const spawn_1 = require("./spawn");
class RunContext {
    /** Bumped on every change, so the workflow can wait for "something happened". */
    version = 0;
    /** The time of the change in progress, for the events the mailbox and members record. */
    clock = 0;
    /**
     * Whether this run's history was recorded with rule change `id` (the workflow's `patched()`), asked only where
     * the rule applies; outside a workflow every rule is the current one.
     */
    patched = () => true;
    plan;
    workflowId;
    startedAt;
    graph;
    leases;
    adjudications;
    budget;
    events;
    mailbox;
    members;
    spawns;
    /** Which turn each running agent is in (team/agents.ts); not in the snapshot. */
    agents = new Map();
    abort;
    closed;
    awaitingSince;
    cancelRequestedAt;
    executions;
    maxConcurrent;
    /** Bytes of task outputs, accepted results and evidence the run holds (bounded by RUN_LIMITS.outputsHeldBytes). */
    outputsHeld = 0;
    constructor(snapshot) {
        this.plan = snapshot.plan;
        this.workflowId = snapshot.workflowId;
        this.startedAt = snapshot.startedAt;
        this.budget = new budget_1.Budget(snapshot.budget);
        this.events = new events_1.EventLog(snapshot.events);
        this.adjudications = new adjudications_1.Adjudications(snapshot.adjudications, snapshot.decisions);
        this.abort = snapshot.abort;
        this.closed = snapshot.closed;
        this.awaitingSince = snapshot.awaitingSince ?? null;
        this.cancelRequestedAt = snapshot.cancelRequestedAt ?? null;
        this.executions = snapshot.executions;
        this.maxConcurrent = snapshot.maxConcurrent;
        const record = (type, fields) => this.events.record(type, this.clock, fields);
        const members = snapshot.members ?? (0, members_1.emptyMembers)(this.plan.teammates, snapshot.startedAt);
        this.members = new members_1.Members(members, !!this.plan.hooks?.teammateIdle, record);
        this.spawns = new spawn_1.Spawns(snapshot.spawns);
        this.graph = new graph_1.TaskGraph(this.plan.tasks, snapshot.tasks, this.events);
        this.mailbox = new mailbox_1.Mailbox(snapshot.mailbox ?? (0, mailbox_1.emptyMailbox)(), {
            keys: this.graph.keys,
            indexOf: (key) => this.graph.indexOf(key),
            teammates: this.plan.teammates,
            settled: (i) => this.graph.isSettled(i),
            record,
        });
        this.leases = new leases_1.Leases(this.plan.teammates);
        for (const r of this.adjudications.records)
            this.outputsHeld += (0, bytes_1.jsonBytes)(r.result);
        for (const task of this.graph.tasks) {
            this.outputsHeld += (0, bytes_1.jsonBytes)(task.output);
            if (task.current)
                this.leases.restore(task.key, task.current);
        }
    }
    snapshot() {
        return JSON.parse(JSON.stringify({
            plan: this.plan,
            workflowId: this.workflowId,
            startedAt: this.startedAt,
            tasks: this.graph.tasks,
            budget: this.budget.snapshot(),
            adjudications: this.adjudications.records,
            decisions: this.adjudications.snapshotDecisions(),
            abort: this.abort,
            closed: this.closed,
            awaitingSince: this.awaitingSince,
            cancelRequestedAt: this.cancelRequestedAt,
            executions: this.executions,
            maxConcurrent: this.maxConcurrent,
            events: this.events.snapshot(),
            mailbox: this.mailbox.snapshot(),
            members: this.members.snapshot(),
            spawns: this.spawns.snapshot(),
        }));
    }
    touch() {
        this.version += 1;
    }
    spec(i) {
        return this.graph.specs[i];
    }
    get acceptingWork() {
        return !this.abort && !this.budget.stopped && !this.closed;
    }
    /** The skip reason of a task that can no longer start because the run takes no work. */
    notTakingWorkSkip() {
        return this.abort ? 'run_aborted' : `budget_stopped: ${this.budget.reason}`;
    }
    /** Why an attempt cannot be leased again once the run takes no work. */
    notTakingWorkReason() {
        return this.abort ? 'the run was aborted' : `the run stopped taking work: ${this.budget.reason ?? 'closed'}`;
    }
    get pendingAdjudications() {
        return this.graph.count('adjudication');
    }
    retryOf(i) {
        return { ...this.plan.retry, ...this.spec(i).retry };
    }
    attemptsSpent(i) {
        const task = this.graph.tasks[i];
        return task.attempts - task.uncounted >= this.retryOf(i).maxAttempts;
    }
    /** `working` while attempts run or tasks can still start; then `awaiting_adjudication` or `done`. */
    phase() {
        if (this.leases.size > 0)
            return 'working';
        if (this.acceptingWork && this.graph.ready.size > 0)
            return 'working';
        if (this.pendingAdjudications > 0 && this.plan.awaitAdjudication && !this.closed)
            return 'awaiting_adjudication';
        return 'done';
    }
    // ---- outputs held -----------------------------------------------------------------------
    /** Whether the run can hold one more output of this size (RUN_LIMITS.outputsHeldBytes). */
    canHold(output) {
        return this.outputsHeld + (0, bytes_1.jsonBytes)(output) <= bounds_1.RUN_LIMITS.outputsHeldBytes;
    }
    outputsFullMessage(bytes) {
        return (`output of ${bytes} bytes does not fit: the run holds ${this.outputsHeld} bytes of task outputs and results, ` +
            `and at most ${bounds_1.RUN_LIMITS.outputsHeldBytes} (outputs travel in the run's state; store large results elsewhere ` +
            `and output a reference)`);
    }
    /** Evidence an attempt left, held if it fits; else a note of what was left out. */
    hold(evidence) {
        if (evidence === undefined)
            return undefined;
        if (this.canHold(evidence))
            return evidence;
        return {
            omitted: `evidence of ${(0, bytes_1.jsonBytes)(evidence)} bytes: the run holds at most ${bounds_1.RUN_LIMITS.outputsHeldBytes} bytes ` +
                `of outputs`,
        };
    }
    // ---- moves across parts -----------------------------------------------------------------
    succeed(i, output, now) {
        this.outputsHeld += (0, bytes_1.jsonBytes)(output) - (0, bytes_1.jsonBytes)(this.graph.tasks[i].output);
        this.graph.succeed(i, output, now, this.acceptingWork ? null : this.notTakingWorkSkip());
    }
    fail(i, reported, now, attempt) {
        this.graph.fail(i, reported, now, attempt?.fencingToken ?? this.graph.tasks[i].fencingToken);
    }
    toAdjudication(i, code, holder, now, details) {
        const task = this.graph.tasks[i];
        const record = {
            key: task.key,
            code: code === 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED' ? (this.abort?.code ?? control_1.ABORT_CODE_DEFAULT) : code,
            reason: details.reason ?? null,
            requestId: details.requestId ?? null,
            actor: details.actor ?? null,
            evidenceDigest: details.evidenceDigest ?? null,
            holder: holder.holder,
            leaseId: holder.leaseId,
            fencingToken: holder.fencingToken,
            requestedAt: details.requestedAt ?? now,
            usage: details.usage ?? null,
            result: details.result ?? null,
            decision: null,
        };
        this.adjudications.add(record);
        this.outputsHeld += (0, bytes_1.jsonBytes)(record.result);
        task.lastError = `${code}: ${record.reason ?? ''}`.trim();
        this.graph.setStatus(task, 'adjudication');
        this.events.record('task:adjudication-required', now, {
            key: task.key,
            code: record.code,
            fencingToken: holder.fencingToken,
        });
    }
    /** Keeps the newest decided adjudication records; their results stop counting as held. */
    forgetOldDecided() {
        this.outputsHeld -= this.adjudications.forgetOldDecided();
    }
    stopForBudget(reason, now) {
        if (!this.budget.stop(reason))
            return;
        this.events.record('run:budget-exhausted', now, { reason, budget: this.budget.view(now, this.startedAt).used });
        this.graph.skipNotStarted(`budget_stopped: ${reason}`, now);
        this.touch();
    }
    // ---- wall clock -------------------------------------------------------------------------
    wallDeadline() {
        // The budget's own limits: tightenBudget may have lowered the plan's.
        const max = this.budget.limits.maxWallMs;
        return max === undefined ? null : this.startedAt + max;
    }
    pastWallDeadline(now) {
        const deadline = this.wallDeadline();
        return deadline !== null && now >= deadline;
    }
    /** The wall-clock budget ran out: nothing new starts, active attempts are stopped into adjudication. */
    wallExpired(now) {
        if (this.budget.stopped && this.budget.reason === 'max-wall-ms')
            return;
        this.leases.stopAll({ kind: 'wall' });
        this.stopForBudget('max-wall-ms', now);
        this.touch();
    }
}
exports.RunContext = RunContext;
