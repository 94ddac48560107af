import { CONTINUE_AS_NEW_EVENTS, type TaskSpec, type TeamPlan } from '../plan/schema';
import { Budget, type BudgetSnapshot } from './budget';
import {
  AbortRequestSchema,
  AdjudicateRequestSchema,
  InterruptRequestSchema,
  TeamControlError,
  parseControl,
  type AbortRequest,
  type AbortVerdict,
  type AdjudicateRequest,
  type InterruptVerdict,
} from './control';
import { EventLog, type EventLogSnapshot } from './events';
import { ledgerActor } from './ledger-requests';
import { boundTaskViews } from './result';
import { ReadyQueue, scopesOverlap } from './scheduling';
import {
  TASK_STATUSES,
  type AdjudicationCode,
  type AdjudicationRecord,
  type Attempt,
  type AttemptOutcome,
  type AttemptStop,
  type BudgetReason,
  type Claim,
  type Interruption,
  type ReportedUsage,
  type RunState,
  type RunStatus,
  type TaskState,
  type TaskStatus,
} from './types';
import { taskView, type TaskView } from './views';

export interface TeamRunSnapshot {
  plan: TeamPlan;
  workflowId: string;
  startedAt: number;
  tasks: TaskState[];
  budget: BudgetSnapshot;
  adjudications: AdjudicationRecord[];
  decisions: Record<string, { ok: true; task: TaskView }>;
  abort: { reason: string | null; requestId: string | null; actor: string | null; at: number } | null;
  /** Why the run closes with adjudications still pending, if it does. */
  closed: 'adjudication-timeout' | 'workflow-cancelled' | null;
  executions: number;
  maxConcurrent: number;
  events: EventLogSnapshot;
  /** When the run began waiting on adjudication only (null while it has work); absent in older snapshots. */
  awaitingSince?: number | null;
}

export interface TasksQuery {
  status?: TaskStatus;
  offset?: number;
  limit?: number;
}

/** The most task views one `tasks` query returns. */
export const MAX_TASKS_PAGE = 2_000;

const STOP_CODE: Record<AttemptStop['kind'], AdjudicationCode> = {
  interrupt: 'TEAM_TASK_HUMAN_INTERRUPTED',
  abort: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
  wall: 'TEAM_WALL_BUDGET_EXHAUSTED',
};

/**
 * The whole state of one team run and every rule that moves it. Pure and deterministic:
 * the caller passes the time, and turns the claims and cancellations it hands out into
 * Temporal calls. `snapshot()` is everything continue-as-new needs to carry.
 */
export class TeamRun {
  /** Bumped on every change, so the workflow can wait for "something happened". */
  version = 0;

  private readonly plan: TeamPlan;
  private readonly specs: ReadonlyArray<TaskSpec>;
  private readonly tasks: TaskState[];
  private readonly index = new Map<string, number>();
  private readonly dependents: number[][];
  private readonly waitingOn: number[];
  private readonly ready: ReadyQueue;
  private readonly counts = new Map<TaskStatus, number>();
  private readonly active = new Map<string, Attempt>();
  private readonly slots: boolean[];
  private readonly budget: Budget;
  private readonly events: EventLog;
  private readonly adjudications: AdjudicationRecord[];
  private readonly decisions: TeamRunSnapshot['decisions'];
  private readonly pendingCancels: Array<{ key: string; fencingToken: number }> = [];
  private abortInfo: TeamRunSnapshot['abort'];
  private closed: TeamRunSnapshot['closed'];
  private awaitingSince: number | null;
  private executions: number;
  private maxConcurrent: number;
  readonly workflowId: string;
  readonly startedAt: number;

  static start(plan: TeamPlan, workflowId: string, now: number): TeamRun {
    const tasks: TaskState[] = plan.tasks.map((spec) => ({
      key: spec.key,
      status: spec.dependsOn.length ? 'blocked' : 'ready',
      attempts: 0,
      uncounted: 0,
      fencingToken: 0,
      current: null,
      holder: null,
      previousLease: null,
      readyAt: now,
      startedAt: null,
      settledAt: null,
      lastError: null,
      skipReason: null,
      usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
    }));
    const run = new TeamRun({
      plan,
      workflowId,
      startedAt: now,
      tasks,
      budget: Budget.create(plan.budget).snapshot(),
      adjudications: [],
      decisions: {},
      abort: null,
      closed: null,
      executions: 0,
      maxConcurrent: 0,
      events: { nextSeq: 1, events: [] },
    });
    run.events.record('run:start', now, { name: plan.name, tasks: plan.tasks.length, teammates: plan.teammates });
    return run;
  }

  constructor(snapshot: TeamRunSnapshot) {
    this.plan = snapshot.plan;
    this.specs = snapshot.plan.tasks;
    this.workflowId = snapshot.workflowId;
    this.startedAt = snapshot.startedAt;
    this.tasks = snapshot.tasks;
    this.budget = new Budget(snapshot.budget);
    this.events = new EventLog(snapshot.events);
    this.adjudications = snapshot.adjudications;
    // No prototype: a decisionId such as "constructor" must not look like an earlier decision.
    this.decisions = Object.assign(Object.create(null) as TeamRunSnapshot['decisions'], snapshot.decisions);
    this.abortInfo = snapshot.abort;
    this.closed = snapshot.closed;
    this.awaitingSince = snapshot.awaitingSince ?? null;
    this.executions = snapshot.executions;
    this.maxConcurrent = snapshot.maxConcurrent;
    this.slots = new Array<boolean>(this.plan.teammates).fill(false);
    this.ready = new ReadyQueue(this.specs);
    this.dependents = this.specs.map(() => []);
    this.waitingOn = this.specs.map(() => 0);
    for (const status of TASK_STATUSES) this.counts.set(status, 0);
    this.specs.forEach((spec, i) => this.index.set(spec.key, i));
    this.specs.forEach((spec, i) => {
      for (const dep of spec.dependsOn) {
        const d = this.index.get(dep);
        if (d === undefined) continue;
        this.dependents[d].push(i);
        if (this.tasks[d].status !== 'succeeded') this.waitingOn[i] += 1;
      }
    });
    this.tasks.forEach((task, i) => {
      this.counts.set(task.status, (this.counts.get(task.status) ?? 0) + 1);
      if (task.status === 'ready') this.ready.add(i);
      if (task.current) {
        this.active.set(task.key, task.current);
        const slot = Number(task.current.holder.replace('teammate-', '')) - 1;
        if (slot >= 0 && slot < this.slots.length) this.slots[slot] = true;
      }
    });
  }

  snapshot(): TeamRunSnapshot {
    return JSON.parse(
      JSON.stringify({
        plan: this.plan,
        workflowId: this.workflowId,
        startedAt: this.startedAt,
        tasks: this.tasks,
        budget: this.budget.snapshot(),
        adjudications: this.adjudications,
        decisions: this.decisions,
        abort: this.abortInfo,
        closed: this.closed,
        awaitingSince: this.awaitingSince,
        executions: this.executions,
        maxConcurrent: this.maxConcurrent,
        events: this.events.snapshot(),
      }),
    ) as TeamRunSnapshot;
  }

  // ---- scheduling -------------------------------------------------------------------------

  private get acceptingWork(): boolean {
    return !this.abortInfo && !this.budget.stopped && !this.closed;
  }

  /** Leases every task that may start now: free teammate, dependencies met, scope free, budget reserved. */
  claim(now: number): Claim[] {
    if (!this.acceptingWork) return [];
    // The workflow's timer may fire a little after the deadline; nothing new starts meanwhile.
    if (this.pastWallDeadline(now)) {
      this.wallExpired(now);
      return [];
    }
    const claims: Claim[] = [];
    let refusal: ReturnType<Budget['reserve']> | null = null;
    for (const i of this.ready.inOrder()) {
      // `lease` adds each claim to `active` at once, so `active` already counts this call's claims.
      const free = this.plan.teammates - this.active.size;
      if (free <= 0) break;
      const task = this.tasks[i];
      const spec = this.specs[i];
      if (task.readyAt > now || this.scopeBusy(spec)) continue;
      const reserved = this.budget.reserve(spec.estimate, free);
      if (!reserved.ok) {
        refusal = reserved;
        if (reserved.reason === 'max-tasks') break;
        continue;
      }
      claims.push(this.lease(i, reserved.reservation, now));
    }
    for (const claim of claims) this.ready.remove(this.index.get(claim.key)!);
    if (claims.length) this.touch();
    // Nothing fits and nothing in flight will free a reservation: stop, unless a task waiting out
    // its retry backoff may still fit (it is tried when its backoff is over).
    if (refusal && !refusal.ok && this.active.size === 0 && (refusal.reason === 'max-tasks' || !this.backingOff(now))) {
      this.stopForBudget(refusal.reason, now);
    }
    return claims;
  }

  private backingOff(now: number): boolean {
    for (const i of this.ready.inOrder()) if (this.tasks[i].readyAt > now) return true;
    return false;
  }

  private scopeBusy(spec: TaskSpec): boolean {
    if (spec.scope.length === 0) return false;
    for (const key of this.active.keys()) {
      if (scopesOverlap(spec.scope, this.specs[this.index.get(key)!].scope)) return true;
    }
    return false;
  }

  private lease(i: number, reservation: Attempt['reservation'], now: number): Claim {
    const task = this.tasks[i];
    const spec = this.specs[i];
    const slot = this.slots.indexOf(false);
    this.slots[slot] = true;
    task.attempts += 1;
    task.fencingToken += 1;
    const fencingToken = task.fencingToken;
    const attempt: Attempt = {
      attempt: task.attempts,
      fencingToken,
      leaseId: `${this.workflowId}/${task.key}/${fencingToken}`,
      holder: `teammate-${slot + 1}`,
      activityId: `${task.key}#${fencingToken}`,
      startedAt: now,
      workerIdentity: null,
      reservation,
      stop: null,
    };
    task.current = attempt;
    task.holder = attempt.holder;
    task.startedAt ??= now;
    this.setStatus(task, 'leased');
    this.active.set(task.key, attempt);
    this.executions += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.active.size);
    const identity = { holder: attempt.holder, leaseId: attempt.leaseId, fencingToken };
    if (task.previousLease) {
      this.events.record('lease:changed', now, { key: task.key, previous: task.previousLease, next: identity });
      task.previousLease = null;
    }
    this.events.record('task:claimed', now, { key: task.key, attempt: attempt.attempt, ...identity, reservation });
    const dependencyOutputs: Record<string, unknown> = {};
    for (const dep of spec.dependsOn) dependencyOutputs[dep] = this.tasks[this.index.get(dep)!].output ?? null;
    return {
      key: task.key,
      title: spec.title ?? task.key,
      attempt: attempt.attempt,
      fencingToken,
      leaseId: attempt.leaseId,
      holder: attempt.holder,
      activityId: attempt.activityId,
      ttlMs: spec.lease?.ttlMs ?? this.plan.lease.ttlMs,
      executor: spec.executor,
      dependencyOutputs,
      estimate: { tokens: spec.estimate?.tokens ?? 0, usd: spec.estimate?.usd ?? 0 },
    };
  }

  /**
   * The earliest time after `now` a task waiting out its retry backoff becomes claimable.
   * Ready tasks already past their backoff (waiting for a teammate or a scope) wake nothing:
   * a settle frees those, and must not hide a later backoff that only time ends.
   */
  nextWakeAt(now: number): number | null {
    if (!this.acceptingWork) return null;
    let wake: number | null = null;
    for (const i of this.ready.inOrder()) {
      const at = this.tasks[i].readyAt;
      if (at > now && (wake === null || at < wake)) wake = at;
    }
    return wake;
  }

  // ---- settlement -------------------------------------------------------------------------

  /**
   * Settles a task from the outcome of one attempt. Anything but the attempt the run is
   * waiting on is recorded and changes nothing: a late result can never become a success.
   */
  settle(key: string, fencingToken: number, outcome: AttemptOutcome, now: number): void {
    const i = this.index.get(key);
    const task = i === undefined ? undefined : this.tasks[i];
    const attempt = task?.current;
    if (i === undefined || !task || !attempt || attempt.fencingToken !== fencingToken) {
      this.events.record('attempt:stale-result', now, { key, fencingToken, outcome: outcome.kind });
      this.touch();
      return;
    }
    // A human who took over an attempt still waiting for a ledger slot decides it like any other.
    if (outcome.kind === 'not-started' && attempt.stop?.kind !== 'interrupt') {
      this.notStarted(i, attempt, outcome.reason, outcome.message, now);
      return;
    }
    this.release(task, attempt);
    if (outcome.workerIdentity) attempt.workerIdentity = outcome.workerIdentity;
    const usage = 'usage' in outcome ? outcome.usage : undefined;
    addUsage(task, usage);
    const charge = this.budget.settle(attempt.reservation, usage);
    const unpriced = !charge.ok;
    task.settledAt = now;
    // Still running at the deadline: the wall clock stopped it, whatever it returned (even before the timer fired).
    if (this.pastWallDeadline(now)) {
      attempt.stop ??= { kind: 'wall' };
      this.wallExpired(now);
    }
    const stop = attempt.stop;
    const evidence = 'output' in outcome ? outcome.output : undefined;
    const identity = { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken };
    // Recorded whatever the attempt was stopped for: the heartbeats stopped, and that is worth knowing.
    if (outcome.kind === 'lease-lost') this.events.record('lease:expired', now, { ...identity, workerIdentity: attempt.workerIdentity });

    if (stop?.kind === 'abort' && !stop.requireAdjudication) {
      this.fail(i, 'run aborted while the attempt was running', now, attempt);
    } else if (stop) {
      const interruption: Partial<Interruption> = stop.kind === 'interrupt' ? stop.interruption : {};
      this.toAdjudication(i, STOP_CODE[stop.kind], attempt, now, {
        ...interruption,
        reason: interruption.reason ?? (stop.kind === 'abort' ? this.abortInfo?.reason ?? null : 'wall-clock budget exhausted'),
        requestId: interruption.requestId ?? (stop.kind === 'abort' ? this.abortInfo?.requestId ?? null : null),
        actor: interruption.actor ?? (stop.kind === 'abort' ? this.abortInfo?.actor ?? null : null),
        usage: usage ?? null,
        result: evidence ?? null,
      });
    } else if (unpriced) {
      this.fail(i, `usage for model "${usage?.model ?? '(none)'}" has no price while budget.maxUsd is set`, now, attempt);
    } else if (outcome.kind === 'lease-lost') {
      const why = this.cannotReLease(i, true);
      if (why) {
        this.toAdjudication(i, 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED', attempt, now, {
          reason: `lease lost: the attempt stopped heartbeating and its outcome is unknown (${why})`,
        });
      } else {
        this.releaseLease(i, attempt, now);
      }
    } else if (outcome.kind === 'released') {
      task.uncounted += 1;
      this.events.record('lease:released', now, { ...identity, workerIdentity: attempt.workerIdentity });
      const why = this.cannotReLease(i, false);
      if (why) {
        this.toAdjudication(i, 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED', attempt, now, {
          reason: `released by a worker shutting down, and its outcome is unknown (${why})`,
        });
      } else {
        this.releaseLease(i, attempt, now);
      }
    } else if (outcome.kind === 'completed') {
      this.succeed(i, outcome.output, now);
      this.events.record('task:completed', now, { key, fencingToken, attempt: attempt.attempt });
    } else {
      const message = outcome.kind === 'failed' ? outcome.message : 'attempt cancelled unexpectedly';
      const nonRetryable = outcome.kind === 'failed' && outcome.nonRetryable;
      if (nonRetryable || this.attemptsSpent(i)) {
        this.fail(i, message, now, attempt);
      } else {
        task.lastError = message;
        task.readyAt = now + this.retryOf(i).backoffMs;
        this.setStatus(task, 'ready');
        this.ready.add(i);
        this.events.record('task:failed', now, { key, fencingToken, error: message, willRetry: true });
      }
    }
    if (unpriced && this.budget.stop('unpriced-usage')) {
      this.events.record('run:budget-exhausted', now, { reason: 'unpriced-usage', model: usage?.model ?? null });
      this.skipNotStarted('budget_stopped: unpriced-usage', now);
    }
    this.touch();
  }

  /**
   * The attempt never started (its shared ledger refused it, or it was stopped while waiting
   * for a slot): it does not count as an execution or an attempt, and the task is ready again,
   * unless the run stops taking work. A refusal for good stops the run with its reason.
   */
  private notStarted(i: number, attempt: Attempt, reason: BudgetReason | null, message: string, now: number): void {
    const task = this.tasks[i];
    this.release(task, attempt);
    this.budget.cancel(attempt.reservation);
    task.attempts -= 1;
    this.executions -= 1;
    if (task.attempts === 0) {
      task.startedAt = null;
      task.holder = null;
    }
    task.readyAt = now;
    this.setStatus(task, 'ready');
    this.ready.add(i);
    this.events.record('task:not-started', now, { key: task.key, fencingToken: attempt.fencingToken, reason, message });
    if (reason) this.stopForBudget(reason, now);
    else if (!this.acceptingWork) this.skip(i, this.abortInfo ? 'run_aborted' : `budget_stopped: ${this.budget.reason}`, now);
    this.touch();
  }

  /**
   * Why an attempt that ended without an outcome (lease lost, or handed back by a worker
   * shutting down) cannot simply be leased again; null when it can. A released attempt does
   * not count against the attempts, and `onLeaseLost` is about lost leases only.
   */
  private cannotReLease(i: number, lost: boolean): string | null {
    if (lost && this.specs[i].onLeaseLost === 'adjudicate') return 'onLeaseLost is "adjudicate"';
    if (lost && this.attemptsSpent(i)) return `all ${this.retryOf(i).maxAttempts} attempts spent`;
    if (!this.acceptingWork) return this.abortInfo ? 'the run was aborted' : `the run stopped taking work: ${this.budget.reason ?? 'closed'}`;
    return null;
  }

  private retryOf(i: number) {
    return { ...this.plan.retry, ...this.specs[i].retry };
  }

  private attemptsSpent(i: number): boolean {
    const task = this.tasks[i];
    return task.attempts - task.uncounted >= this.retryOf(i).maxAttempts;
  }

  private release(task: TaskState, attempt: Attempt): void {
    task.current = null;
    this.active.delete(task.key);
    const slot = Number(attempt.holder.replace('teammate-', '')) - 1;
    if (slot >= 0) this.slots[slot] = false;
  }

  private releaseLease(i: number, attempt: Attempt, now: number): void {
    const task = this.tasks[i];
    task.previousLease = {
      holder: attempt.holder,
      leaseId: attempt.leaseId,
      fencingToken: attempt.fencingToken,
      workerIdentity: attempt.workerIdentity,
    };
    task.readyAt = now;
    this.setStatus(task, 'ready');
    this.ready.add(i);
  }

  private succeed(i: number, output: unknown, now: number): void {
    const task = this.tasks[i];
    task.output = output;
    task.lastError = null;
    task.settledAt = now;
    this.setStatus(task, 'succeeded');
    for (const d of this.dependents[i]) {
      this.waitingOn[d] -= 1;
      const dependent = this.tasks[d];
      if (this.waitingOn[d] === 0 && dependent.status === 'blocked') {
        dependent.readyAt = now;
        this.setStatus(dependent, 'ready');
        if (this.acceptingWork) this.ready.add(d);
        else this.skip(d, this.abortInfo ? 'run_aborted' : `budget_stopped: ${this.budget.reason}`, now);
      }
    }
  }

  private fail(i: number, message: string, now: number, attempt?: Attempt): void {
    const task = this.tasks[i];
    task.lastError = message;
    task.settledAt = now;
    this.setStatus(task, 'failed');
    this.events.record('task:failed', now, {
      key: task.key,
      fencingToken: attempt?.fencingToken ?? task.fencingToken,
      error: message,
      willRetry: false,
    });
    this.skipDependents(i, `dependency "${task.key}" failed`, now);
  }

  private skipDependents(i: number, reason: string, now: number): void {
    const stack = [...this.dependents[i]];
    while (stack.length) {
      const d = stack.pop()!;
      const status = this.tasks[d].status;
      if (status !== 'blocked' && status !== 'ready') continue;
      this.skip(d, reason, now);
      stack.push(...this.dependents[d]);
    }
  }

  private skip(i: number, reason: string, now: number): void {
    const task = this.tasks[i];
    if (task.status === 'ready') this.ready.remove(i);
    task.skipReason = reason;
    task.settledAt = now;
    this.setStatus(task, 'skipped');
    this.events.record('task:skipped', now, { key: task.key, reason });
  }

  private skipNotStarted(reason: string, now: number): void {
    this.tasks.forEach((task, i) => {
      if (task.status === 'blocked' || task.status === 'ready') this.skip(i, reason, now);
    });
  }

  private toAdjudication(
    i: number,
    code: AdjudicationCode,
    attempt: Attempt,
    now: number,
    details: Partial<AdjudicationRecord>,
  ): void {
    const task = this.tasks[i];
    const record: AdjudicationRecord = {
      key: task.key,
      code,
      reason: details.reason ?? null,
      requestId: details.requestId ?? null,
      actor: details.actor ?? null,
      evidenceDigest: details.evidenceDigest ?? null,
      holder: attempt.holder,
      leaseId: attempt.leaseId,
      fencingToken: attempt.fencingToken,
      requestedAt: details.requestedAt ?? now,
      usage: details.usage ?? null,
      result: details.result ?? null,
      decision: null,
    };
    this.adjudications.push(record);
    task.lastError = `${code}: ${record.reason ?? ''}`.trim();
    this.setStatus(task, 'adjudication');
    this.events.record('task:adjudication-required', now, { key: task.key, code, fencingToken: attempt.fencingToken });
  }

  private stopForBudget(reason: NonNullable<Budget['reason']>, now: number): void {
    if (!this.budget.stop(reason)) return;
    this.events.record('run:budget-exhausted', now, { reason, budget: this.budget.view(now, this.startedAt).used });
    this.skipNotStarted(`budget_stopped: ${reason}`, now);
    this.touch();
  }

  // ---- wall clock -------------------------------------------------------------------------

  wallDeadline(): number | null {
    const max = this.plan.budget.maxWallMs;
    return max === undefined ? null : this.startedAt + max;
  }

  private pastWallDeadline(now: number): boolean {
    const deadline = this.wallDeadline();
    return deadline !== null && now >= deadline;
  }

  /** The wall-clock budget ran out: nothing new starts, active attempts are stopped into adjudication. */
  wallExpired(now: number): void {
    if (this.budget.stopped && this.budget.reason === 'max-wall-ms') return;
    this.stopActive({ kind: 'wall' });
    this.stopForBudget('max-wall-ms', now);
    this.touch();
  }

  private stopActive(stop: AttemptStop): number {
    let stopped = 0;
    for (const attempt of this.active.values()) {
      const key = this.keyOf(attempt);
      if (attempt.stop) continue;
      attempt.stop = stop;
      this.pendingCancels.push({ key, fencingToken: attempt.fencingToken });
      stopped += 1;
    }
    return stopped;
  }

  private keyOf(attempt: Attempt): string {
    return attempt.activityId.slice(0, attempt.activityId.lastIndexOf('#'));
  }

  /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
  drainCancellations(): Array<{ key: string; fencingToken: number }> {
    return this.pendingCancels.splice(0);
  }

  // ---- control ----------------------------------------------------------------------------

  /** Throws `forbidden` when governance names operators and `actor` is not one of them. */
  checkActor(actor: string | undefined, message: string): void {
    const operators = this.plan.governance?.operators;
    // The run's shared ledger may abort it (a cascade abort), whoever governance names.
    const ledger = this.plan.budget.ledger;
    if (message === 'abortRun' && ledger !== undefined && actor === ledgerActor(ledger)) return;
    if (operators && !(actor && operators.includes(actor))) {
      throw new TeamControlError('forbidden', `${message}: actor "${actor ?? ''}" is not one of governance.operators`);
    }
  }

  /** Validates an interruptTask payload for the update validator (shape and governance only). */
  validateInterrupt(payload: unknown): void {
    const request = parseControl(InterruptRequestSchema, payload, 'interruptTask');
    this.checkActor(request.actor, 'interruptTask');
  }

  interrupt(payload: unknown, now: number): InterruptVerdict {
    let request;
    try {
      request = parseControl(InterruptRequestSchema, payload, 'interruptTask');
      this.checkActor(request.actor, 'interruptTask');
    } catch (err) {
      return this.rejected('interruptTask', payload, err as TeamControlError, now) as InterruptVerdict;
    }
    const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
    const attempt = this.active.get(request.key);
    const reject = (reason: 'not_active' | 'stale_attempt' | 'already_interrupted'): InterruptVerdict => {
      this.events.record('control:rejected', now, { message: 'interruptTask', key: request.key, reason, ...control });
      this.touch();
      return { ok: false, reason };
    };
    if (!attempt || (attempt.stop && attempt.stop.kind !== 'interrupt')) {
      // A client retrying a request that already landed (and whose attempt has since settled) gets the same answer.
      const settled = this.settledInterruption(request.key, request.fencingToken, control.requestId);
      if (settled) return this.duplicate('interruptTask', control, now, { ok: true, idempotent: true, interruption: settled });
      return reject('not_active');
    }
    if (request.fencingToken !== attempt.fencingToken) return reject('stale_attempt');
    if (attempt.stop?.kind === 'interrupt') {
      if (attempt.stop.interruption.requestId !== control.requestId) return reject('already_interrupted');
      const interruption = this.interruptionView(request.key, attempt);
      return this.duplicate('interruptTask', control, now, { ok: true, idempotent: true, interruption });
    }
    const interruption: Interruption = {
      ...control,
      reason: request.reason ?? null,
      evidenceDigest: request.evidenceDigest ?? null,
      requestedAt: now,
    };
    attempt.stop = { kind: 'interrupt', interruption };
    this.pendingCancels.push({ key: request.key, fencingToken: attempt.fencingToken });
    this.events.record('task:interrupt-requested', now, {
      key: request.key,
      fencingToken: attempt.fencingToken,
      ...control,
      reason: interruption.reason,
    });
    this.touch();
    return { ok: true, interruption: this.interruptionView(request.key, attempt) };
  }

  private interruptionView(key: string, attempt: Attempt) {
    const interruption = attempt.stop?.kind === 'interrupt' ? attempt.stop.interruption : null;
    return { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken: attempt.fencingToken, ...interruption };
  }

  /** The interruption of attempt `fencingToken` by `requestId`, once that attempt has settled into adjudication. */
  private settledInterruption(key: string, fencingToken: number | undefined, requestId: string | null) {
    const record = this.latestAdjudication(key);
    if (!record || record.code !== 'TEAM_TASK_HUMAN_INTERRUPTED') return null;
    if (record.fencingToken !== fencingToken || record.requestId !== requestId) return null;
    const { holder, leaseId, actor, reason, evidenceDigest, requestedAt } = record;
    return { key, holder, leaseId, fencingToken, requestId, actor, reason, evidenceDigest, requestedAt };
  }

  /** A control message repeated with the same id changes nothing but is still on the record. */
  private duplicate<T>(message: string, control: { requestId: string | null; actor: string | null }, now: number, verdict: T): T {
    this.events.record('control:idempotent', now, { message, ...control });
    this.touch();
    return verdict;
  }

  validateAbort(payload: unknown): void {
    const request = parseControl(AbortRequestSchema, payload ?? {}, 'abortRun');
    this.checkActor(request.actor, 'abortRun');
  }

  /** Coordinator abort: nothing new starts, active attempts are stopped, the rest skipped. */
  abort(payload: unknown, now: number): AbortVerdict {
    let request;
    try {
      request = parseControl(AbortRequestSchema, payload ?? {}, 'abortRun');
      this.checkActor(request.actor, 'abortRun');
    } catch (err) {
      return this.rejected('abortRun', payload, err as TeamControlError, now) as AbortVerdict;
    }
    if (this.abortInfo) {
      const control = { requestId: request.requestId ?? null, actor: request.actor ?? null };
      return this.duplicate('abortRun', control, now, { ok: true, idempotent: true, activeClaims: this.active.size });
    }
    return this.applyAbort(request, now);
  }

  /**
   * Temporal cancelled the workflow (`temporal workflow cancel`, the UI's button): an abort that
   * Temporal's own authorization already allowed, after which the run closes instead of waiting
   * for adjudication (the pending records are in its result).
   */
  cancelRequested(now: number): void {
    if (!this.abortInfo) this.applyAbort({ reason: 'workflow cancellation requested', actor: 'temporal' }, now);
    this.closed = 'workflow-cancelled';
    this.events.record('run:cancel-requested', now, { activeClaims: this.active.size, pending: this.pendingAdjudications });
    this.touch();
  }

  private applyAbort(request: AbortRequest, now: number): AbortVerdict {
    this.abortInfo = {
      reason: request.reason ?? null,
      requestId: request.requestId ?? null,
      actor: request.actor ?? null,
      at: now,
    };
    const activeClaims = this.active.size;
    this.events.record('run:abort-requested', now, { ...this.abortInfo, activeClaims });
    this.stopActive({ kind: 'abort', requireAdjudication: request.requireAdjudication ?? true });
    this.skipNotStarted('run_aborted', now);
    this.touch();
    return { ok: true, activeClaims };
  }

  /** Every check of an `adjudicate` request, in the order the contract gives; throws `TeamControlError`. */
  validateAdjudicate(payload: unknown): AdjudicateRequest {
    const request = parseControl(AdjudicateRequestSchema, payload, 'adjudicate');
    this.checkActor(request.actor, 'adjudicate');
    if (this.decisions[request.decisionId]) return request;
    const i = this.index.get(request.key);
    if (i === undefined) throw new TeamControlError('not_found', `adjudicate: no task "${request.key}"`);
    const record = this.pendingAdjudication(request.key);
    if (this.tasks[i].status !== 'adjudication' || !record) {
      throw new TeamControlError(
        'adjudication_not_required',
        `adjudicate: task "${request.key}" is ${this.tasks[i].status}, not awaiting adjudication`,
      );
    }
    if (request.evidenceDigest !== undefined && request.evidenceDigest !== record.evidenceDigest) {
      throw new TeamControlError(
        'evidence_mismatch',
        `adjudicate: evidenceDigest "${request.evidenceDigest}" differs from the recorded "${record.evidenceDigest ?? ''}"`,
      );
    }
    if (request.decision === 'retry' && !this.acceptingWork) {
      throw new TeamControlError(
        'run_not_accepting_work',
        `adjudicate: the run ${this.abortInfo ? 'was aborted' : this.closed ? 'is closing' : 'stopped on its budget'}; only accept or reject apply`,
      );
    }
    return request;
  }

  adjudicate(payload: unknown, now: number): { ok: true; idempotent?: true; task: TaskView } {
    const request = this.validateAdjudicate(payload);
    const earlier = this.decisions[request.decisionId];
    if (earlier) return { ...earlier, idempotent: true };
    const i = this.index.get(request.key)!;
    const task = this.tasks[i];
    const record = this.pendingAdjudication(request.key)!;
    record.decision = {
      decisionId: request.decisionId,
      decision: request.decision,
      actor: request.actor ?? null,
      reason: request.reason ?? null,
      decidedAt: now,
    };
    this.events.record('task:adjudicated', now, {
      key: task.key,
      decision: request.decision,
      decisionId: request.decisionId,
      actor: record.decision.actor,
    });
    if (request.decision === 'retry') {
      task.uncounted = task.attempts;
      task.readyAt = now;
      task.lastError = null;
      this.setStatus(task, 'ready');
      this.ready.add(i);
    } else if (request.decision === 'accept') {
      this.succeed(i, request.result ?? record.result ?? null, now);
    } else {
      this.fail(i, `rejected by adjudication${request.reason ? `: ${request.reason}` : ''}`, now);
    }
    const outcome = { ok: true as const, task: taskView(task, this.specs[i]) };
    this.decisions[request.decisionId] = outcome;
    this.touch();
    return outcome;
  }

  private pendingAdjudication(key: string): AdjudicationRecord | undefined {
    const record = this.latestAdjudication(key);
    return record?.decision ? undefined : record;
  }

  private latestAdjudication(key: string): AdjudicationRecord | undefined {
    for (let r = this.adjudications.length - 1; r >= 0; r--) {
      if (this.adjudications[r].key === key) return this.adjudications[r];
    }
    return undefined;
  }

  private rejected(message: string, payload: unknown, err: TeamControlError, now: number) {
    const fields = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
    // Bounded: a rejected payload may be oversized, and the event log lives in workflow memory.
    const said = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : null);
    this.events.record('control:rejected', now, {
      message,
      reason: err.code ?? 'invalid_request',
      detail: err.message.slice(0, 500),
      actor: said(fields.actor),
      requestId: said(fields.requestId),
    });
    this.touch();
    return { ok: false, reason: err.code ?? 'invalid_request', message: err.message };
  }

  // ---- lifecycle --------------------------------------------------------------------------

  get pendingAdjudications(): number {
    return this.counts.get('adjudication') ?? 0;
  }

  /** The shared ledger the plan names (`budget.ledger`), if any. */
  get ledgerId(): string | null {
    return this.plan.budget.ledger ?? null;
  }

  /**
   * While the run waits on adjudication only: when that wait gives up (`adjudicationTimeoutMs`
   * after it began). Null, and the clock reset, while the run has work. The clock is in the
   * snapshot, so continuing as new does not restart it.
   */
  adjudicationDeadline(now: number): number | null {
    if (this.phase() !== 'awaiting_adjudication') {
      this.awaitingSince = null;
      return null;
    }
    this.awaitingSince ??= now;
    return this.awaitingSince + this.plan.adjudicationTimeoutMs;
  }

  /** History length at which the workflow hands the run over to a fresh workflow run. */
  get continueAsNewAfterEvents(): number {
    return this.plan.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_EVENTS.default;
  }

  get activeCount(): number {
    return this.active.size;
  }

  /** `working` while attempts run or tasks can still start; then `awaiting_adjudication` or `done`. */
  phase(): 'working' | 'awaiting_adjudication' | 'done' {
    if (this.active.size > 0) return 'working';
    if (this.acceptingWork && this.ready.size > 0) return 'working';
    if (this.pendingAdjudications > 0 && this.plan.awaitAdjudication && !this.closed) return 'awaiting_adjudication';
    return 'done';
  }

  /** Nobody decided in time: the run closes `unresolved` with its adjudications still pending. */
  closeUnresolved(now: number): void {
    this.closed = 'adjudication-timeout';
    this.events.record('run:adjudication-timeout', now, { pending: this.pendingAdjudications });
    this.touch();
  }

  runStatus(): RunStatus {
    if (this.abortInfo) return 'aborted';
    if (this.budget.stopped) return 'budget_stopped';
    if (this.pendingAdjudications > 0) return 'unresolved';
    if ((this.counts.get('failed') ?? 0) + (this.counts.get('skipped') ?? 0) > 0) return 'failed';
    return 'succeeded';
  }

  state(): RunState {
    const phase = this.phase();
    if (phase === 'working') return 'running';
    if (phase === 'awaiting_adjudication') return 'awaiting_adjudication';
    return this.runStatus();
  }

  /** Closes the run: tasks that can no longer start are skipped, `run:end` recorded. */
  finish(now: number) {
    this.tasks.forEach((task, i) => {
      if (task.status === 'blocked' || task.status === 'ready') this.skip(i, 'run closed before its dependencies settled', now);
    });
    const status = this.runStatus();
    this.events.record('run:end', now, { status, stats: this.stats() });
    this.touch();
    return {
      status,
      stats: this.stats(),
      executions: this.executions,
      maxConcurrent: this.maxConcurrent,
      budget: this.budgetView(now),
      budgetReason: this.budget.reason,
      // Every view while they fit in the 2 MB result; past that, see `boundTaskViews`.
      ...boundTaskViews(this.tasksView({ limit: this.tasks.length })),
      adjudications: this.adjudicationsView(),
    };
  }

  // ---- views (queries) --------------------------------------------------------------------

  stats() {
    const n = (s: TaskStatus) => this.counts.get(s) ?? 0;
    return {
      total: this.tasks.length,
      succeeded: n('succeeded'),
      failed: n('failed'),
      skipped: n('skipped'),
      adjudication: n('adjudication'),
      running: n('leased'),
      pending: n('blocked') + n('ready'),
    };
  }

  status(now: number) {
    return {
      name: this.plan.name,
      state: this.state(),
      stats: this.stats(),
      budget: this.budgetView(now),
      teammates: { requested: this.plan.teammates, active: this.active.size },
      startedAt: this.startedAt,
      pendingAdjudications: this.pendingAdjudications,
      executions: this.executions,
      maxConcurrent: this.maxConcurrent,
    };
  }

  budgetView(now: number) {
    return this.budget.view(now, this.startedAt);
  }

  /**
   * The `tasks` query: one page, at most MAX_TASKS_PAGE views, so an answer stays far below
   * Temporal's payload limit on any run; page on with `offset`.
   */
  tasksPage(query: TasksQuery = {}): TaskView[] {
    return this.tasksView({ ...query, limit: Math.min(query.limit ?? 1_000, MAX_TASKS_PAGE) });
  }

  tasksView(query: TasksQuery = {}): TaskView[] {
    const offset = Math.max(0, query.offset ?? 0);
    const limit = Math.max(0, query.limit ?? 1_000);
    const out: TaskView[] = [];
    let skipped = 0;
    for (let i = 0; i < this.tasks.length && out.length < limit; i++) {
      if (query.status && this.tasks[i].status !== query.status) continue;
      if (skipped++ < offset) continue;
      out.push(taskView(this.tasks[i], this.specs[i]));
    }
    return out;
  }

  /**
   * Attempts holding a lease now. Which worker runs one is not known here until it ends (it
   * travels in heartbeats and results); `temporal workflow describe` shows it meanwhile.
   */
  activeClaims() {
    return [...this.active.entries()].map(([key, a]) => ({
      key,
      holder: a.holder,
      leaseId: a.leaseId,
      fencingToken: a.fencingToken,
      attempt: a.attempt,
      activityId: a.activityId,
      startedAt: a.startedAt,
      interrupted: a.stop?.kind === 'interrupt',
      interruption: a.stop?.kind === 'interrupt' ? a.stop.interruption : null,
    }));
  }

  adjudicationsView(): AdjudicationRecord[] {
    return this.adjudications;
  }

  eventsView(query: { after?: number; limit?: number } = {}) {
    return this.events.page(query.after, query.limit);
  }

  /** Records an event from the workflow shell (e.g. a continue-as-new boundary). */
  record(type: string, now: number, fields: Record<string, unknown> = {}): void {
    this.events.record(type, now, fields);
  }

  private setStatus(task: TaskState, status: TaskStatus): void {
    this.counts.set(task.status, (this.counts.get(task.status) ?? 0) - 1);
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    task.status = status;
  }

  private touch(): void {
    this.version += 1;
  }
}

function addUsage(task: TaskState, usage: ReportedUsage | undefined): void {
  if (!usage) return;
  task.usage.inputTokens += usage.inputTokens ?? 0;
  task.usage.outputTokens += usage.outputTokens ?? 0;
  task.usage.cacheTokens += usage.cacheTokens ?? 0;
  task.usage.costUsd += usage.costUsd ?? 0;
}
