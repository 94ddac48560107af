import { count, usd } from '../format';
import { usageTokens } from '../team/budget';
import type { AdjudicationRecord, BudgetView, TaskView } from '../contract';
import type { HistoryAttempt, HistoryFacts } from './history-facts';
import type {
  AdjudicationRow,
  AttemptOutcome,
  AttemptRecord,
  BudgetPoint,
  ControlRecord,
  LeaseRecord,
  RunReport,
  TaskReport,
} from './model';

/** The run's own view of itself: its result when closed, its queries while open. */
export interface FinalState {
  state: string;
  stats: RunReport['stats'];
  tasks: TaskView[];
  adjudications: AdjudicationRecord[];
  budget: BudgetView;
}

/** What Temporal says about the execution besides its history. */
export interface ExecutionFacts {
  workflowId: string;
  runIds: string[];
  team: string | null;
  taskQueue: string | null;
  /** `RUNNING`, `COMPLETED`, `FAILED`, `TERMINATED`, ... */
  workflowStatus: string;
  /** The Temporal Web UI base URL and namespace, for links; null when unknown. */
  webUi?: { base: string; namespace: string } | null;
  /** Attempts still running: the server has not written their Started event yet. */
  pending: Array<{ activityId: string; startedAt: number | null; worker: string | null }>;
}

/** Puts a run's history and final state together into the report's story. */
export function buildReport(
  facts: HistoryFacts,
  execution: ExecutionFacts,
  final: FinalState | null,
  now: number,
): RunReport {
  const notes: string[] = [];
  const attempts = facts.attempts.map((a) => attemptRecord(a, facts.control, execution.pending, execution.runIds));
  const tasks = taskReports(facts, attempts, final);
  if (!final && execution.workflowStatus === 'RUNNING') {
    notes.push(
      'The run is open and did not answer queries (no worker on ' +
        'its task queue?): task states and adjudications are missing.',
    );
  } else if (!final) {
    notes.push('The workflow closed without a run result: task states and adjudications are missing.');
  }
  if (final && final.tasks.length < (final.stats?.total ?? 0)) {
    notes.push(
      `The run's result lists ${final.tasks.length} of ${final.stats?.total} tasks; the others show attempts only.`,
    );
  }
  if (facts.stepsDropped) {
    notes.push(
      `The timeline shows the first ${facts.steps.length} agent steps; ${facts.stepsDropped} more are left out.`,
    );
  }
  const close = facts.close;
  const budget = budgetOf(facts, attempts, final, lostChargedAt(attempts, close?.at ?? now));
  if (budget.beyondReported) notes.push(beyondReportedNote(budget.beyondReported, attempts, facts));
  if (close?.kind === 'cancelled' && close.result?.cancellation) {
    notes.push(
      `The workflow closed Canceled (a Temporal cancel request, ` +
        `handled as abortRun): ${close.result.cancellation.message}.`,
    );
  }
  return {
    workflowId: execution.workflowId,
    webUi: execution.webUi ?? null,
    runIds: execution.runIds,
    team: execution.team ?? facts.plan?.name ?? null,
    taskQueue: execution.taskQueue,
    state:
      final?.state ??
      (close && close.kind !== 'completed'
        ? `workflow ${close.kind}: ${close.message}`
        : execution.workflowStatus.toLowerCase()),
    workflowStatus: execution.workflowStatus,
    startedAt: facts.startedAt,
    closedAt: close?.at ?? null,
    generatedAt: now,
    stats: final?.stats ?? null,
    tasks,
    spawned: spawnedOf(facts, tasks),
    leases: leaseRecords(attempts),
    control: facts.control,
    steps: facts.steps,
    agents: [],
    adjudications: final ? final.adjudications.map(adjudicationRow) : null,
    budget: budget.view,
    notes,
  };
}

/** When the chart shows what the run charged beyond reported usage: when the last lease expired, else at `end`. */
function lostChargedAt(attempts: AttemptRecord[], end: number): number {
  const expired = attempts.filter((a) => a.outcome === 'lease-expired').map((a) => a.endedAt ?? a.scheduledAt);
  return expired.length ? Math.max(...expired) : end;
}

function beyondReportedNote(beyond: Beyond, attempts: AttemptRecord[], facts: HistoryFacts): string {
  const lost = attempts.filter((a) => a.outcome === 'lease-expired').length;
  const teams = (facts.plan?.tasks ?? []).some((t) => t.executor.kind === 'team');
  const why = [
    ...(lost
      ? [`${lost} lease(s) expired, and an attempt lost with its worker is charged what it held (docs/budgets.md)`]
      : []),
    ...(teams ? ["a team task is charged its child run's spend when the child ends, which no attempt reports"] : []),
  ];
  return (
    `The run charged ${count(beyond.tokens)} tokens and ${usd(beyond.usd)} beyond the usage its attempts reported` +
    (why.length ? `: ${why.join('; ')}` : '') +
    `. The budget chart adds it at ${new Date(beyond.at).toISOString()}, so that it ends at the run's own figure.`
  );
}

function attemptRecord(
  a: HistoryAttempt,
  control: ControlRecord[],
  pending: ExecutionFacts['pending'],
  runIds: string[],
): AttemptRecord {
  const live = a.end ? undefined : pending.find((p) => p.activityId === a.activityId);
  const interruption = control.find(
    (c) =>
      c.name === 'interruptTask' &&
      c.key === a.input.taskKey &&
      c.fencingToken === a.input.fencingToken &&
      (c.verdict === null || c.verdict.startsWith('ok')),
  );
  const [outcome, detail] = classify(a, Boolean(live?.startedAt), interruption);
  const end = a.end;
  return {
    key: a.input.taskKey,
    activityId: a.activityId,
    attempt: a.input.attempt,
    fencingToken: a.input.fencingToken,
    leaseId: a.input.leaseId,
    holder: a.input.holder,
    // An unproven answer names whoever sent it: the worker is the one the server saw start the attempt.
    worker: (a.unproven ? null : end?.worker) ?? a.worker ?? live?.worker ?? null,
    executor: a.input.executor.kind,
    summary: a.summary,
    scheduledAt: a.scheduledAt,
    startedAt: a.startedAt ?? live?.startedAt ?? null,
    endedAt: end?.at ?? null,
    cancelRequestedAt: a.cancelRequestedAt,
    outcome,
    detail,
    // What someone else sent is not what the attempt used: the run charged it as a lost lease.
    usage: end && 'usage' in end && !a.unproven ? end.usage : null,
    runId: runIds[a.runIndex] ?? null,
    scheduledEventId: a.scheduledEventId || null,
    logs: (end && 'logs' in end ? end.logs : null) ?? null,
    links: (end && 'links' in end ? end.links : null) ?? [],
  };
}

/** The same rules as the team run's settlement: a stop (interrupt, abort) decides before what the attempt returned. */
function classify(
  a: HistoryAttempt,
  started: boolean,
  interruption: ControlRecord | undefined,
): [AttemptOutcome, string | null] {
  const end = a.end;
  if (!end) return [started ? 'running' : 'scheduled', null];
  const stopped = a.cancelRequestedAt !== null;
  if (stopped && interruption) {
    const how =
      end.kind === 'completed'
        ? 'it completed anyway: evidence only'
        : end.kind === 'timed-out'
          ? 'its lease expired before it stopped'
          : 'it stopped';
    return ['interrupted', `${interruption.actor ? `by ${interruption.actor}; ` : ''}${how}`];
  }
  if (stopped) return ['cancelled', `stopped by the run (abort or wall-clock budget); ${end.kind}`];
  switch (end.kind) {
    case 'completed':
      if (a.unproven) return ['lease-expired', unconfirmed('result')];
      return ['succeeded', null];
    case 'failed':
      if (a.unproven) return ['lease-expired', unconfirmed('failure')];
      if (end.type === 'TeamWorkerShutdown') return ['released', end.message];
      return ['failed', end.type ? `${end.type}: ${end.message}` : end.message];
    case 'timed-out':
      if (end.timeoutType === 'HEARTBEAT') return ['lease-expired', 'no heartbeat within the lease TTL'];
      return ['timed-out', `${end.timeoutType.toLowerCase().replace(/_/g, '-')} timeout`];
    case 'cancelled':
      return a.unproven ? ['lease-expired', unconfirmed('cancellation')] : ['cancelled', 'cancelled'];
  }
}

/** A governed run's attempt whose worker did not confirm what completed its activity: settled as a lost lease. */
const unconfirmed = (what: string) =>
  `its worker did not confirm the ${what} (sent by someone else, or its worker gone)`;

function taskReports(facts: HistoryFacts, attempts: AttemptRecord[], final: FinalState | null): TaskReport[] {
  const views = new Map((final?.tasks ?? []).map((t) => [t.key, t]));
  const specs = facts.plan?.tasks ?? [];
  const keys = [
    ...new Set([...specs.map((t) => t.key), ...(final?.tasks ?? []).map((t) => t.key), ...attempts.map((a) => a.key)]),
  ];
  return keys.map((key) => {
    const spec = specs.find((t) => t.key === key);
    const view = views.get(key);
    return {
      key,
      title: view?.title ?? spec?.title ?? key,
      status: view?.status ?? null,
      dependsOn: view?.dependsOn ?? spec?.dependsOn ?? [],
      attempts: attempts.filter((a) => a.key === key).sort((x, y) => x.fencingToken - y.fencingToken),
      lastError: view?.lastError ?? null,
      parent: view?.parent ?? null,
      ...(view?.outcome ? { outcome: view.outcome } : {}),
    };
  });
}

function spawnedOf(facts: HistoryFacts, tasks: TaskReport[]): RunReport['spawned'] {
  const planned = new Set((facts.plan?.tasks ?? []).map((t) => t.key));
  const tree = new Map<string, string[]>();
  for (const task of tasks) {
    if (task.parent === null) continue;
    const children = tree.get(task.parent);
    if (children) children.push(task.key);
    else tree.set(task.parent, [task.key]);
  }
  return {
    added: facts.plan ? tasks.filter((t) => !planned.has(t.key)).length : 0,
    tree: [...tree].map(([parent, children]) => ({ parent, children })),
  };
}

function leaseRecords(attempts: AttemptRecord[]): LeaseRecord[] {
  return attempts
    .filter((a) => a.outcome === 'lease-expired' || a.outcome === 'released')
    .map((a) => {
      const next = attempts
        .filter((b) => b.key === a.key && b.fencingToken > a.fencingToken)
        .sort((x, y) => x.fencingToken - y.fencingToken)[0];
      return {
        at: a.endedAt ?? a.scheduledAt,
        key: a.key,
        fencingToken: a.fencingToken,
        leaseId: a.leaseId,
        worker: a.worker,
        next: next ? { fencingToken: next.fencingToken, at: next.scheduledAt } : null,
      };
    });
}

function adjudicationRow(record: AdjudicationRecord): AdjudicationRow {
  return {
    key: record.key,
    code: record.code,
    reason: record.reason,
    actor: record.actor,
    fencingToken: record.fencingToken,
    requestedAt: record.requestedAt,
    decision: record.decision && {
      decision: record.decision.decision,
      decisionId: record.decision.decisionId,
      actor: record.decision.actor,
      reason: record.decision.reason,
      decidedAt: record.decision.decidedAt,
    },
  };
}

/**
 * Budget over time: an attempt counts when it starts, its usage when it settles. The run's own figure (`final`) also
 * counts what no attempt reported: a lost attempt's charge (what it held), made when its lease expired. History does
 * not say how much each was; the chart adds the difference at the last expiry (`chargedAt`), so that it ends there.
 */
function budgetOf(
  facts: HistoryFacts,
  attempts: AttemptRecord[],
  final: FinalState | null,
  chargedAt: number,
): { view: RunReport['budget']; beyondReported: Beyond | null } {
  const steps: Array<{ at: number; attempts: number; tokens: number; usd: number }> = [];
  for (const a of attempts) {
    steps.push({ at: a.scheduledAt, attempts: 1, tokens: 0, usd: 0 });
    if (a.usage && a.endedAt !== null)
      steps.push({ at: a.endedAt, attempts: 0, tokens: usageTokens(a.usage), usd: a.usage.costUsd ?? 0 });
  }
  const beyond = final && {
    tokens: Math.max(0, final.budget.used.tokens - steps.reduce((sum, step) => sum + step.tokens, 0)),
    usd: Math.max(0, roundUsd(final.budget.used.usd - steps.reduce((sum, step) => sum + step.usd, 0))),
    at: chargedAt,
  };
  const beyondReported = beyond && (beyond.tokens > 0 || beyond.usd > 0) ? beyond : null;
  if (beyondReported) steps.push({ ...beyondReported, attempts: 0 });
  steps.sort((x, y) => x.at - y.at);
  const points: BudgetPoint[] = [{ at: facts.startedAt, attempts: 0, tokens: 0, usd: 0 }];
  for (const step of steps) {
    const last = points[points.length - 1];
    const point = {
      at: step.at,
      attempts: last.attempts + step.attempts,
      tokens: last.tokens + step.tokens,
      usd: roundUsd(last.usd + step.usd),
    };
    if (point.at === last.at) points[points.length - 1] = point;
    else points.push(point);
  }
  const end = points[points.length - 1];
  return {
    view: {
      limits: final?.budget.limits ?? facts.plan?.budget ?? {},
      used: final
        ? { attempts: final.budget.used.tasks, tokens: final.budget.used.tokens, usd: final.budget.used.usd }
        : { attempts: end.attempts, tokens: end.tokens, usd: end.usd },
      points,
      stopped: final?.budget.stopped ?? false,
      reason: final?.budget.reason ?? null,
    },
    beyondReported,
  };
}

/** What the run charged beyond the usage its attempts reported, and when the chart shows it. */
interface Beyond {
  tokens: number;
  usd: number;
  at: number;
}

const roundUsd = (usd: number) => Math.round(usd * 1e9) / 1e9;
