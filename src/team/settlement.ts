/**
 * Settlement: one attempt's outcome applied to its task. Checks that the outcome is the awaited
 * attempt's (a late result is recorded and changes nothing), charges its usage, asks routing.ts
 * where the task goes and moves it there. Owns no state of its own; the parts are in context.ts.
 */
import { linksEnded } from './coordinated';
import { jsonBytes } from '../plan/bytes';
import { RUN_LIMITS, clip } from './bounds';
import type { RunContext } from './context';
import { sendFromOutcome } from './messaging';
import {
  BUDGET_EXCEEDED_CODE,
  STALLED_CODE,
  MODEL_UNAVAILABLE_CODE,
  defaultStopReason,
  neverStarted,
  route,
  stopKind,
  type Disposition,
  type NoReLease,
  type RouteInput,
  type SpawnResult,
} from './routing';
import { spawnOnSettle } from './additions';
import { lostAttemptBound } from './lost-usage';
import { scopeReleased } from './claims';
import type {
  Attempt,
  AttemptOutcome,
  BudgetReason,
  Interruption,
  ReportedUsage,
  Reservation,
  TaskState,
} from './types';

/**
 * Settles a task from the outcome of one attempt. Anything but the attempt the run is
 * waiting on is recorded and changes nothing: a late result can never become a success.
 * Returns what a lost attempt was charged as its bound (the shared ledger charges the same), else null.
 */
export function settle(
  run: RunContext,
  key: string,
  fencingToken: number,
  outcome: AttemptOutcome,
  now: number,
): Reservation | null {
  const i = run.graph.indexOf(key);
  const task = i === undefined ? undefined : run.graph.tasks[i];
  const attempt = task?.current;
  if (i === undefined || !task || !attempt || attempt.fencingToken !== fencingToken) {
    run.events.record('attempt:stale-result', now, { key, fencingToken, outcome: outcome.kind });
    run.touch();
    return null;
  }
  if (outcome.kind === 'not-started' && neverStarted(outcome.kind, attempt.stop)) {
    notStarted(run, i, attempt, outcome.reason, outcome.message, now);
    return null;
  }
  run.leases.close(task, attempt);
  linksEnded(run, key, attempt, outcome.kind);
  scopeReleased(run, i, fencingToken, outcome.kind, now);
  if (outcome.workerIdentity) attempt.workerIdentity = outcome.workerIdentity;
  const usage = 'usage' in outcome ? outcome.usage : undefined;
  addUsage(task, usage);
  // A lost attempt is charged what it can have spent, where that has a bound (team/lost-usage.ts), and is leased
  // again as without limits. Without a bound its usage is unknown: charged its reservation, and a spend limit
  // cannot be trusted to hold.
  const lost = outcome.kind === 'lease-lost';
  const bound = lost && run.patched(LOST_ATTEMPT_BOUND) ? lostAttemptBound(kindOf(run, i), attempt.reservation) : null;
  const usageUnknown = lost && !bound;
  const unpriced = lost ? false : !run.budget.settle(attempt.reservation, usage).ok;
  const charged = bound
    ? run.budget.settleLost(attempt.reservation, bound)
    : usageUnknown
      ? run.budget.settleUnknown(attempt.reservation)
      : null;
  const stopUnknown = usageUnknown && run.budget.limitsSpend;
  // An executor that marked its usage unknown reported its reservation for it: charged above, flagged here.
  if ('usageUnknown' in outcome && outcome.usageUnknown === true) run.budget.markUnknown();
  task.settledAt = now;
  // Still running at the deadline: the wall clock stopped it, whatever it returned (even before the timer fired).
  if (run.pastWallDeadline(now)) {
    attempt.stop ??= { kind: 'wall' };
    run.wallExpired(now);
  }
  // Recorded whatever the attempt was stopped for: the heartbeats stopped, and that is worth knowing.
  if (outcome.kind === 'lease-lost') {
    run.expiredLeases += 1;
    const identity = { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken };
    run.events.record('lease:expired', now, {
      ...identity,
      workerIdentity: attempt.workerIdentity,
      ...(charged ? { charged, usageUnknown } : {}),
    });
  }
  const input: RouteInput = {
    outcome: outcome.kind,
    stop: stopKind(attempt.stop),
    unpriced,
    usageUnknown: stopUnknown,
    outputFits: outcome.kind === 'completed' && run.canHold(outcome.output),
    asksToSpawn: outcome.kind === 'completed' && outcome.tasks !== undefined,
    nonRetryable: outcome.kind === 'failed' && outcome.nonRetryable,
    budgetExceeded: outcome.kind === 'failed' && outcome.errorType === BUDGET_EXCEEDED_CODE,
    stalled: outcome.kind === 'failed' && outcome.errorType === STALLED_CODE,
    modelUnavailable: outcome.kind === 'failed' && outcome.errorType === MODEL_UNAVAILABLE_CODE,
    attemptsSpent: run.attemptsSpent(i),
    onLeaseLost: run.spec(i).onLeaseLost,
    acceptingWork: run.acceptingWork,
  };
  const applied = new Settling(run, i, attempt, outcome, usage, now);
  let disposition = route(input);
  if (disposition.to === 'add-tasks') {
    const spawn = spawnOnSettle(run, i, attempt, outcome.kind === 'completed' ? outcome.tasks : undefined, now);
    applied.spawnMessage = spawn?.message ?? null;
    disposition = route({ ...input, spawn: spawnResult(run, spawn?.kind) });
  }
  applied.apply(disposition);
  if (stopUnknown) run.stopForBudget('usage-unknown', now);
  run.clock = now;
  if (task.status === 'succeeded' || task.status === 'failed') sendFromOutcome(run, key, outcome, now);
  const succeeded = task.status === 'succeeded';
  run.members.ended(attempt.holder, succeeded, succeeded ? null : (task.lastError ?? outcome.kind), now);
  if (unpriced && run.budget.stop('unpriced-usage')) {
    run.events.record('run:budget-exhausted', now, { reason: 'unpriced-usage', model: usage?.model ?? null });
    run.graph.skipNotStarted('budget_stopped: unpriced-usage', now);
  }
  run.touch();
  return bound;
}

/** Histories recorded before a lost attempt was charged its bound stopped the run `usage-unknown`. */
export const LOST_ATTEMPT_BOUND = 'teamrun-lost-attempt-bound';

function kindOf(run: RunContext, i: number): string {
  return (run.spec(i).executor as { kind: string }).kind;
}

/** Histories recorded before a refused addition failed its task for good retried it, and must replay as they ran. */
const REFUSED_ADDITIONS_FAIL = 'teamrun-refused-additions-fail';

function spawnResult(run: RunContext, refused: 'limit' | 'invalid' | 'forbidden' | undefined): SpawnResult {
  if (refused === 'invalid' && !run.patched(REFUSED_ADDITIONS_FAIL)) return 'invalid-retryable';
  return refused ?? 'added';
}

/** One settlement's disposition, applied to its task. */
class Settling {
  spawnMessage: string | null = null;
  private readonly task: TaskState;
  /** Evidence the attempt left, as the run holds it (taken before the task moves). */
  private readonly evidence: unknown;

  constructor(
    private readonly run: RunContext,
    private readonly i: number,
    private readonly attempt: Attempt,
    private readonly outcome: AttemptOutcome,
    private readonly usage: ReportedUsage | undefined,
    private readonly now: number,
  ) {
    this.task = run.graph.tasks[i];
    this.evidence = run.hold('output' in outcome ? outcome.output : undefined);
  }

  apply(d: Disposition): void {
    const { run, i, attempt, outcome, now } = this;
    // Handed back by a worker shutting down: on the record, and not counted against the attempts.
    if ((d.to === 're-lease' && d.released) || (d.to === 'adjudication' && d.why === 'released')) {
      this.task.uncounted += 1;
      const identity = {
        key: this.task.key,
        holder: attempt.holder,
        leaseId: attempt.leaseId,
        fencingToken: attempt.fencingToken,
      };
      run.events.record('lease:released', now, { ...identity, workerIdentity: attempt.workerIdentity });
    }
    switch (d.to) {
      case 'succeeded':
        run.succeed(i, outcome.kind === 'completed' ? outcome.output : undefined, now);
        run.events.record('task:completed', now, {
          key: this.task.key,
          fencingToken: attempt.fencingToken,
          attempt: attempt.attempt,
        });
        return;
      case 'failed':
        run.fail(i, this.failure(d.why), now, attempt);
        return;
      case 'retry':
        this.retry();
        return;
      case 're-lease':
        this.reLease();
        return;
      case 'adjudication':
        if (d.why === 'stalled') {
          const reason = clip(this.attemptError(), RUN_LIMITS.errorChars);
          run.events.record('task:stalled', now, { key: this.task.key, fencingToken: attempt.fencingToken, reason });
        }
        run.toAdjudication(i, d.code, attempt, now, this.adjudication(d));
        return;
      case 'add-tasks':
        throw new Error('settle: routing asked to add tasks twice');
    }
  }

  private failure(why: Extract<Disposition, { to: 'failed' }>['why']): string {
    const { outcome, usage } = this;
    switch (why) {
      case 'aborted':
        return 'run aborted while the attempt was running';
      case 'unpriced':
        return `usage for model "${usage?.model ?? '(none)'}" has no price while budget.maxUsd is set`;
      case 'output-too-large':
        return this.run.outputsFullMessage(jsonBytes(outcome.kind === 'completed' ? outcome.output : undefined));
      case 'attempt-failed':
        return this.attemptError();
    }
  }

  private attemptError(): string {
    if (this.spawnMessage !== null) return this.spawnMessage;
    return this.outcome.kind === 'failed' ? this.outcome.message : 'attempt cancelled unexpectedly';
  }

  private retry(): void {
    const { run, task, i, now } = this;
    task.lastError = clip(this.attemptError(), RUN_LIMITS.errorChars);
    run.graph.makeReady(i, now + run.retryOf(i).backoffMs);
    run.events.record('task:failed', now, {
      key: task.key,
      fencingToken: this.attempt.fencingToken,
      error: task.lastError,
      willRetry: true,
    });
  }

  /** Leased again from now; the next attempt's `lease:changed` names this one. */
  private reLease(): void {
    const { attempt } = this;
    this.task.previousLease = {
      holder: attempt.holder,
      leaseId: attempt.leaseId,
      fencingToken: attempt.fencingToken,
      workerIdentity: attempt.workerIdentity,
    };
    this.run.graph.makeReady(this.i, this.now);
  }

  private adjudication(
    d: Extract<Disposition, { to: 'adjudication' }>,
  ): Partial<Interruption> & Record<string, unknown> {
    const { run, usage, evidence } = this;
    const stop = this.attempt.stop;
    switch (d.why) {
      case 'stopped': {
        const kind = stopKind(stop);
        if (!kind) throw new Error('settle: routing says the attempt was stopped, but nothing stopped it');
        const interruption: Partial<Interruption> = stop?.kind === 'interrupt' ? stop.interruption : {};
        const aborted = stop?.kind === 'abort' ? run.abort : null;
        const actor = interruption.actor ?? aborted?.actor ?? null;
        return {
          ...interruption,
          reason: interruption.reason ?? aborted?.reason ?? defaultStopReason(kind, actor),
          requestId: interruption.requestId ?? aborted?.requestId ?? null,
          actor,
          usage: usage ?? null,
          result: evidence ?? null,
        };
      }
      case 'spawn-limit':
        return { reason: this.spawnMessage, usage: usage ?? null, result: evidence ?? null };
      case 'budget-exceeded':
      case 'stalled':
      case 'model-unavailable':
        return {
          reason: clip(this.attemptError(), RUN_LIMITS.errorChars),
          usage: usage ?? null,
          result: evidence ?? null,
        };
      case 'usage-unknown':
        return {
          reason:
            'lease lost: the attempt stopped heartbeating; its outcome and usage are unknown, and the budget sets a ' +
            'token or dollar limit (usage-unknown)',
        };
      case 'lease-lost':
        return {
          reason:
            `lease lost: the attempt stopped heartbeating and its outcome is unknown ` +
            `(${this.noReLease(d.because)})`,
        };
      case 'released':
        return {
          reason: `released by a worker shutting down, and its outcome is unknown (${this.noReLease(d.because)})`,
        };
    }
  }

  private noReLease(because: NoReLease | undefined): string {
    if (because === 'on-lease-lost-adjudicate') return 'onLeaseLost is "adjudicate"';
    if (because === 'attempts-spent') return `all ${this.run.retryOf(this.i).maxAttempts} attempts spent`;
    return this.run.notTakingWorkReason();
  }
}

/**
 * The attempt never started (its shared ledger refused it, or it was stopped while waiting
 * for a slot): it does not count as an execution or an attempt, and the task is ready again,
 * unless the run stops taking work. A refusal for good stops the run with its reason.
 */
function notStarted(
  run: RunContext,
  i: number,
  attempt: Attempt,
  reason: BudgetReason | null,
  message: string,
  now: number,
): void {
  const task = run.graph.tasks[i];
  run.leases.close(task, attempt);
  scopeReleased(run, i, attempt.fencingToken, 'not-started', now);
  run.clock = now;
  run.members.unclaimed(attempt.holder, now);
  run.budget.cancel(attempt.reservation);
  task.attempts -= 1;
  run.executions -= 1;
  if (task.attempts === 0) {
    task.startedAt = null;
    task.holder = null;
  }
  run.graph.makeReady(i, now);
  run.events.record('task:not-started', now, { key: task.key, fencingToken: attempt.fencingToken, reason, message });
  if (reason) run.stopForBudget(reason, now);
  else if (!run.acceptingWork) run.graph.skipTask(i, run.notTakingWorkSkip(), now);
  run.touch();
}

function addUsage(task: TaskState, usage: ReportedUsage | undefined): void {
  if (!usage) return;
  task.usage.inputTokens += usage.inputTokens ?? 0;
  task.usage.outputTokens += usage.outputTokens ?? 0;
  // The task's view has one cache count: what was read from a prompt cache and what was written to it.
  task.usage.cacheTokens += (usage.cacheTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  task.usage.costUsd += usage.costUsd ?? 0;
}
