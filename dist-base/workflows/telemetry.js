"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunTelemetry = void 0;
/**
 * teamrun's own metrics and spans, from the run's events: metrics through the workflow's
 * `metricMeter` (the SDK's own path: Prometheus at TEAMRUN_METRICS_ADDRESS, or OTLP; never
 * emitted during replay), spans through the OpenTelemetry API, which is a no-op unless the worker
 * runs Temporal's OpenTelemetry workflow interceptors (then they join the run's span, exported out
 * of the sandbox, never during replay). Neither issues a command: the run's history is the same
 * with them or without.
 */
const api_1 = require("@opentelemetry/api");
const workflow_1 = require("@temporalio/workflow");
/** A task's end, by the event that records it, as `outcome` of `teamrun_tasks_settled`. */
const SETTLED = {
    'task:completed': 'succeeded',
    'task:failed': 'failed',
    'task:skipped': 'skipped',
    'task:not-started': 'not_started',
};
/** Events worth a span of their own in the run's trace: the moments a human or the budget stepped in. */
const SPANS = {
    'task:adjudication-required': 'adjudication required',
    'task:adjudicated': 'adjudicated',
    'run:budget-exhausted': 'budget stop',
    'lease:expired': 'lease lost',
};
/** Fields of an event a span carries, by the contract's attribute names. */
const FIELDS = {
    key: 'teamrun.task.key',
    fencingToken: 'teamrun.fencing_token',
    code: 'teamrun.reason',
    reason: 'teamrun.reason',
    decision: 'teamrun.decision',
    actor: 'teamrun.actor',
    workerIdentity: 'teamrun.worker',
};
/** At most this many events are read per step: a step records far fewer. */
const EVENTS_PER_STEP = 1_000;
class RunTelemetry {
    run;
    seen;
    settled = workflow_1.metricMeter.createCounter('teamrun_tasks_settled', 'tasks', 'tasks settled, by outcome');
    leasesLost = workflow_1.metricMeter.createCounter('teamrun_leases_lost', 'leases', 'leases that expired: their worker stopped heartbeating');
    pending = workflow_1.metricMeter.createGauge('teamrun_adjudications_pending', 'int', 'adjudications', 'adjudications waiting for a human');
    tokens = workflow_1.metricMeter.createGauge('teamrun_budget_tokens', 'int', 'tokens', 'used and reserved');
    usd = workflow_1.metricMeter.createGauge('teamrun_budget_usd', 'float', 'USD', 'used and reserved');
    /** The plan's name, the gauges' `team` label: read once, as a run's status is a view of every task. */
    team;
    constructor(run, now) {
        this.run = run;
        // Events the run began with (a continued run's) were counted by the run before it.
        this.seen = run.eventsView({ after: 0, limit: 0 }).nextSeq;
        this.team = run.status(now).name;
    }
    /** Counts and traces the events since the last step, and sets the gauges. */
    record(now) {
        const { run } = this;
        const page = run.eventsView({ after: this.seen, limit: EVENTS_PER_STEP });
        this.seen = page.nextSeq;
        for (const event of page.events)
            this.count(event);
        const team = { team: this.team };
        const budget = run.budgetView(now);
        this.pending.set(run.pendingAdjudications, team);
        this.tokens.set(budget.used.tokens, { ...team, kind: 'used' });
        this.tokens.set(budget.reserved.tokens, { ...team, kind: 'reserved' });
        this.usd.set(budget.used.usd, { ...team, kind: 'used' });
        this.usd.set(budget.reserved.usd, { ...team, kind: 'reserved' });
    }
    count(event) {
        const outcome = SETTLED[event.type];
        // A failure the run retries is not the task's end.
        if (outcome && event.willRetry !== true)
            this.settled.add(1, { outcome });
        if (event.type === 'lease:expired')
            this.leasesLost.add(1);
        const name = SPANS[event.type];
        if (!name)
            return;
        const attributes = { 'teamrun.run_id': this.run.workflowId };
        for (const [field, attribute] of Object.entries(FIELDS)) {
            const value = event[field];
            if (typeof value === 'string' || typeof value === 'number')
                attributes[attribute] = value;
        }
        api_1.trace.getTracer('teamrun').startSpan(name, { attributes, startTime: event.at }).end(event.at);
    }
}
exports.RunTelemetry = RunTelemetry;
