/**
 * teamrun's own metrics and spans, from the run's events: metrics through the workflow's
 * `metricMeter` (the SDK's own path: Prometheus at TEAMRUN_METRICS_ADDRESS, or OTLP; never
 * emitted during replay), spans through the OpenTelemetry API, which is a no-op unless the worker
 * runs Temporal's OpenTelemetry workflow interceptors (then they join the run's span, exported out
 * of the sandbox, never during replay). Neither issues a command: the run's history is the same
 * with them or without.
 */
import { trace, type Attributes } from '@opentelemetry/api';
import type { MetricGauge, MetricTags } from '@temporalio/common';
import { metricMeter, workflowInfo } from '@temporalio/workflow';
import type { RunEvent } from '../contract';
import type { TeamRun } from '../team/run';
import type { TaskSpans } from './task-spans';

/** A task's end, by the event that records it, as `outcome` of `teamrun_tasks_settled`. */
const SETTLED: Record<string, string> = {
  'task:completed': 'succeeded',
  'task:failed': 'failed',
  'task:skipped': 'skipped',
  'task:not-started': 'not_started',
};

/** Events worth a span of their own in the run's trace: the moments a human or the budget stepped in. */
const SPANS: Record<string, string> = {
  'task:adjudication-required': 'adjudication required',
  'task:adjudicated': 'adjudicated',
  'run:budget-exhausted': 'budget stop',
  'lease:expired': 'lease lost',
};

/** Fields of an event a span carries, by the contract's attribute names. */
const FIELDS: Record<string, string> = {
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

export class RunTelemetry {
  private seen: number;
  private readonly settled = metricMeter.createCounter('teamrun_tasks_settled', 'tasks', 'tasks settled, by outcome');
  private readonly leasesLost = metricMeter.createCounter(
    'teamrun_leases_lost',
    'leases',
    'leases that expired: their worker stopped heartbeating',
  );
  /** The plan's name is the gauges' `team` label: read once, as a run's status is a view of every task. */
  private readonly gauges: Gauges;

  constructor(
    private readonly run: TeamRun,
    now: number,
    private readonly spans: TaskSpans,
  ) {
    // Events the run began with (a continued run's) were counted by the run before it.
    this.seen = run.eventsView({ after: 0, limit: 0 }).nextSeq;
    this.gauges = new Gauges(run.status(now).name);
  }

  /** Counts and traces the events since the last step, and sets the gauges that changed. */
  record(now: number): void {
    const { run } = this;
    const page = run.eventsView({ after: this.seen, limit: EVENTS_PER_STEP });
    this.seen = page.nextSeq;
    // One metric call per outcome per step, not per event: each is a sink call the worker's main thread runs.
    const settled = new Map<string, number>();
    for (const event of page.events) this.count(event, settled);
    for (const [outcome, n] of settled) this.settled.add(n, { outcome });
    const budget = run.budgetView(now);
    this.gauges.set('pending', run.pendingAdjudications);
    this.gauges.set('tokens:used', budget.used.tokens);
    this.gauges.set('tokens:reserved', budget.reserved.tokens);
    this.gauges.set('usd:used', budget.used.usd);
    this.gauges.set('usd:reserved', budget.reserved.usd);
  }

  private count(event: RunEvent, settled: Map<string, number>): void {
    const outcome = SETTLED[event.type];
    // A failure the run retries is not the task's end.
    if (outcome && event.willRetry !== true) {
      settled.set(outcome, (settled.get(outcome) ?? 0) + 1);
      if (typeof event.key === 'string') this.spans.settled(event.key, outcome, event.at);
    }
    if (event.type === 'lease:expired') this.leasesLost.add(1);
    const name = SPANS[event.type];
    if (!name) return;
    const attributes: Attributes = { 'teamrun.run_id': this.run.workflowId };
    for (const [field, attribute] of Object.entries(FIELDS)) {
      const value = event[field];
      if (typeof value === 'string' || typeof value === 'number') attributes[attribute] = value;
    }
    trace.getTracer('teamrun').startSpan(name, { attributes, startTime: event.at }).end(event.at);
  }
}

/**
 * The run's gauges, each set only when its value changed since it was last set on this worker: a
 * step sets five, and each set is a sink call. A replayed step sets nothing (the SDK drops metrics
 * during replay), so the first live step after a replay sets them all again.
 */
class Gauges {
  private readonly last = new Map<GaugeName, number>();
  private readonly series: Record<GaugeName, { gauge: MetricGauge; tags: MetricTags }>;

  constructor(team: string) {
    const tokens = metricMeter.createGauge('teamrun_budget_tokens', 'int', 'tokens', 'used and reserved');
    const usd = metricMeter.createGauge('teamrun_budget_usd', 'float', 'USD', 'used and reserved');
    const pending = metricMeter.createGauge(
      'teamrun_adjudications_pending',
      'int',
      'adjudications',
      'adjudications waiting for a human',
    );
    this.series = {
      pending: { gauge: pending, tags: { team } },
      'tokens:used': { gauge: tokens, tags: { team, kind: 'used' } },
      'tokens:reserved': { gauge: tokens, tags: { team, kind: 'reserved' } },
      'usd:used': { gauge: usd, tags: { team, kind: 'used' } },
      'usd:reserved': { gauge: usd, tags: { team, kind: 'reserved' } },
    };
  }

  set(name: GaugeName, value: number): void {
    if (this.last.get(name) === value) return;
    const { gauge, tags } = this.series[name];
    gauge.set(value, tags);
    if (!workflowInfo().unsafe.isReplaying) this.last.set(name, value);
  }
}

type GaugeName = 'pending' | 'tokens:used' | 'tokens:reserved' | 'usd:used' | 'usd:reserved';
