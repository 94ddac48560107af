/**
 * The run's lifecycle: what it waits for, when waiting on people gives up, its state and final
 * status, and closing it with its result. Reads every part; changes only the run's own
 * lifecycle fields (awaitingSince, closed) and, on finish, skips what can no longer start.
 */
import { withTree } from './tree-limits';
import type { CancellationView, RunLedgerSummary, RunResult, RunState, RunStatus, StatusView } from '../contract';
import type { RunContext } from './context';
import { nextApprovalDeadline } from './decisions';
import { COMPACT_RESULT, RESULT_TASKS_COMPACT_BYTES, RESULT_TASKS_MAX_BYTES, boundTaskViews } from './result';

/** What the workflow waits for after a step: any change, or also a time. */
export interface Wait {
  /** Wake after this long even if nothing changed; null waits for a change only; 0 or less does not wait. */
  timeoutMs: number | null;
  /** Waiting on adjudication only: if nothing moved by this time, the run closes unresolved. */
  closesAt: number | null;
}

export function beginWait(run: RunContext, now: number, handingOver: boolean): Wait {
  const closesAt = adjudicationDeadline(run, now);
  const approvalAt = nextApprovalDeadline(run);
  if (closesAt !== null) return { timeoutMs: Math.min(closesAt, approvalAt ?? Infinity) - now, closesAt };
  const readyAt = nextWakeAt(run, now);
  const wake = readyAt === null ? approvalAt : approvalAt === null ? readyAt : Math.min(readyAt, approvalAt);
  return { timeoutMs: wake !== null && wake > now && !handingOver ? wake - now : null, closesAt: null };
}

/**
 * The earliest time after `now` a task waiting out its retry backoff becomes claimable. Ready
 * tasks already past their backoff (waiting for a teammate or a scope) wake nothing: a settle
 * frees those, and must not hide a later backoff that only time ends.
 */
export function nextWakeAt(run: RunContext, now: number): number | null {
  return run.acceptingWork ? run.graph.nextReadyAt(now) : null;
}

/**
 * While the run waits on adjudication only: when that wait gives up (`adjudicationTimeoutMs`
 * after it began), starting its clock if it had not. Null, and the clock reset, while the run
 * has work. The clock is in the snapshot, so continuing as new does not restart it.
 */
export function adjudicationDeadline(run: RunContext, now: number): number | null {
  if (run.phase() !== 'awaiting_adjudication') {
    run.awaitingSince = null;
    return null;
  }
  run.awaitingSince ??= now;
  return run.awaitingSince + run.plan.adjudicationTimeoutMs;
}

export function closeUnresolved(run: RunContext, now: number): void {
  run.closed = 'adjudication-timeout';
  run.events.record('run:adjudication-timeout', now, { pending: run.pendingAdjudications });
  run.touch();
}

export function runStatus(run: RunContext): RunStatus {
  if (run.abort) return 'aborted';
  if (run.budget.stopped) return 'budget_stopped';
  if (run.pendingAdjudications > 0) return 'unresolved';
  if (run.graph.count('failed') + run.graph.count('skipped') > 0) return 'failed';
  return 'succeeded';
}

export function state(run: RunContext): RunState {
  const phase = run.phase();
  if (phase === 'working') return 'running';
  if (phase === 'awaiting_adjudication') return 'awaiting_adjudication';
  return runStatus(run);
}

export function status(run: RunContext, now: number): StatusView {
  return {
    name: run.plan.name,
    state: state(run),
    stats: run.stats(),
    budget: withTree(run, run.budget.view(now, run.startedAt)),
    teammates: { requested: run.plan.teammates, active: run.leases.size },
    startedAt: run.startedAt,
    pendingAdjudications: run.pendingAdjudications,
    ...(run.cancelRequestedAt !== null ? { cancelRequestedAt: run.cancelRequestedAt } : {}),
    executions: run.executions,
    maxConcurrent: run.maxConcurrent,
    ...waitingForBudget(run),
    ...decisionChain(run),
  };
}

/** Ready tasks that wait for budget, the first few. */
function waitingForBudget(run: RunContext): { waitingForBudget?: Array<{ key: string; waiting: string }> } {
  const waits = run.graph.waitingTasks(5).first.map((i) => {
    const task = run.graph.tasks[i];
    return { key: task.key, waiting: task.waiting! };
  });
  return waits.length ? { waitingForBudget: waits } : {};
}

/** Closes the run: tasks that can no longer start are skipped, `run:end` recorded. */
export function finish(run: RunContext, now: number, ledger?: RunLedgerSummary): RunResult {
  run.graph.skipNotStarted('run closed before its dependencies settled', now);
  const result = runStatus(run);
  const cancellation = cancellationView(run);
  run.clock = now;
  run.members.shutdown(now);
  run.events.record('run:end', now, {
    status: result,
    stats: run.stats(),
    ...(cancellation ? { cancelled: true } : {}),
  });
  run.touch();
  return {
    status: result,
    stats: run.stats(),
    executions: run.executions,
    maxConcurrent: run.maxConcurrent,
    budget: withTree(run, run.budget.view(now, run.startedAt)),
    budgetReason: run.budget.reason,
    // Every view while they fit in a page (older runs: in the 2 MB result); past that, see `boundTaskViews`.
    ...boundTaskViews(
      run.graph.tasksView({ limit: run.graph.size }),
      run.patched(COMPACT_RESULT) ? RESULT_TASKS_COMPACT_BYTES : RESULT_TASKS_MAX_BYTES,
    ),
    adjudications: run.adjudications.records,
    ...decisionChain(run),
    ...(cancellation ? { cancellation } : {}),
    members: run.members.view(),
    mailbox: run.mailbox.status(),
    ...(ledger ? { ledger } : {}),
  };
}

/** The decision chain's head, once a decision was chained. */
function decisionChain(run: RunContext): { decisionChain?: { seq: number; head: string } } {
  const { chain } = run.adjudications;
  return chain.seq > 0 ? { decisionChain: { ...chain } } : {};
}

function cancellationView(run: RunContext): CancellationView | undefined {
  if (run.cancelRequestedAt === null) return undefined;
  const abandoned = run.pendingAdjudications;
  let message = 'cancelled: every adjudication was decided before the run closed';
  if (abandoned > 0) {
    const why =
      run.closed === 'adjudication-timeout'
        ? 'nobody decided within adjudicationTimeoutMs'
        : 'awaitAdjudication is false';
    message = `cancelled: ${abandoned} adjudication(s) abandoned (${why}); they can no longer be decided`;
  }
  return { requestedAt: run.cancelRequestedAt, abandonedAdjudications: abandoned, message };
}
