import type { ActiveClaim, BudgetView, EventsPage, RunResult, RunStats, StatusView } from '../contract';
import { AddTasksRequestSchema, CONTINUE_AS_NEW_EVENTS, type AddTasksRequest, type TaskSpec, type TeamPlan } from '../plan/schema';
import { jsonBytes } from '../plan/bytes';
import { formatPath } from '../plan/validate';
import { validateAddedTasks } from '../plan/validate-added';
import { RUN_LIMITS, clip } from './bounds';
import { Budget, type BudgetSnapshot } from './budget';
import { APPROVAL_CODE, APPROVAL_HOLDER, approvalDeadline, approvalOf, approvalReason } from './approval';
import { ABORT_CODE_DEFAULT, TeamControlError } from './control';
import { ADDED_EVENT_KEYS, SPAWN_LIMIT_CODE, Spawns, type SpawnSnapshot } from './spawn';
import { EventLog, type EventLogSnapshot } from './events';
import { Mailbox, MAILBOX_LIMITS, emptyMailbox, type MailboxSnapshot } from './mailbox';
import { Members, emptyMembers, type MembersSnapshot } from './members';
import { boundTaskViews } from './result';
import { heartbeatEveryMs } from './lease-pace';
import { ReadyQueue, scopesOverlap } from './scheduling';
import { parseAnnouncements, stopsByQueue, type StopRequest } from './stop-channel';
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
  /** Decision ids already applied (the newest RUN_LIMITS.decisionIds), with the task each decided; `seq` orders them. */
  decisions: Record<string, { ok: true; task: Pick<TaskView, 'key'> & Partial<TaskView>; seq?: number }>;
  /** `code` (absent in older snapshots) is what the abort's adjudications carry. */
  abort: { reason: string | null; requestId: string | null; actor: string | null; at: number; code?: string } | null;
  /** Why the run closes with adjudications still pending, if it does. */
  closed: 'adjudication-timeout' | 'workflow-cancelled' | null;
  executions: number;
  maxConcurrent: number;
  events: EventLogSnapshot;
  /** When the run began waiting on adjudication only (null while it has work); absent in older snapshots. */
  awaitingSince?: number | null;
  /** When Temporal's own cancellation was requested; the run then closes as Canceled. Absent in older snapshots. */
  cancelRequestedAt?: number | null;
  /** The teammates' mailbox and the members' records (absent in older snapshots). */
  mailbox?: MailboxSnapshot;
  members?: MembersSnapshot;
  /** Tasks added while the run runs (`addTasks`); absent in older snapshots. */
  spawns?: SpawnSnapshot;
}

/** What a cancelled run's result says about the cancellation (absent from a run that was not cancelled). */
export interface CancellationView {
  requestedAt: number;
  /** Adjudications still pending when the run closed: nobody can decide them any more. */
  abandonedAdjudications: number;
  message: string;
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
 * The whole state of one team run and the rules that move it by itself: scheduling, leases
 * and settlement, the wall clock, the run's lifecycle and its views. Pure and deterministic:
 * the caller passes the time, and turns the claims and cancellations it hands out into Temporal
 * calls. `snapshot()` is everything continue-as-new needs to carry. What people send (takeover,
 * abort, adjudication) is in `TeamRun` (run.ts), on top of this.
 */
export abstract class TeamRunCore {
  /** Bumped on every change, so the workflow can wait for "something happened". */
  version = 0;

  protected readonly plan: TeamPlan;
  protected readonly specs: ReadonlyArray<TaskSpec>;
  protected readonly tasks: TaskState[];
  protected readonly index = new Map<string, number>();
  protected readonly dependents: number[][];
  protected readonly waitingOn: number[];
  protected readonly ready: ReadyQueue;
  protected readonly counts = new Map<TaskStatus, number>();
  protected readonly active = new Map<string, Attempt>();
  protected readonly slots: boolean[];
  protected readonly budget: Budget;
  protected readonly events: EventLog;
  protected readonly adjudications: AdjudicationRecord[];
  protected readonly decisions: TeamRunSnapshot['decisions'];
  protected readonly pendingCancels: Array<{ key: string; fencingToken: number }> = [];
  protected readonly mailbox: Mailbox;
  protected readonly members: Members;
  protected readonly spawns: Spawns;
  /** Task keys in run order (the mailbox reads it). */
  protected readonly taskKeys: string[];
  private treeCache: { key: string; tree: Array<{ parent: string; children: string[]; total: number }> } | null = null;
  /** Stopped attempts that announced a stop queue: each gets a stop there besides its cancellation. */
  protected readonly pendingStops: Array<{ queue: string; leaseId: string }> = [];
  protected abortInfo: TeamRunSnapshot['abort'];
  protected closed: TeamRunSnapshot['closed'];
  protected awaitingSince: number | null;
  protected cancelRequestedAt: number | null;
  protected executions: number;
  protected maxConcurrent: number;
  /** Bytes of task outputs, accepted results and evidence the run holds (bounded by RUN_LIMITS.outputsHeldBytes). */
  protected outputsHeld = 0;
  readonly workflowId: string;
  readonly startedAt: number;

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
    this.cancelRequestedAt = snapshot.cancelRequestedAt ?? null;
    this.executions = snapshot.executions;
    this.maxConcurrent = snapshot.maxConcurrent;
    this.members = new Members(snapshot.members ?? emptyMembers(this.plan.teammates, snapshot.startedAt), !!this.plan.hooks?.teammateIdle, (type, fields) =>
      this.events.record(type, this.clock, fields),
    );
    this.spawns = new Spawns(snapshot.spawns);
    this.slots = new Array<boolean>(this.plan.teammates).fill(false);
    this.ready = new ReadyQueue(this.specs);
    this.dependents = this.specs.map(() => []);
    this.waitingOn = this.specs.map(() => 0);
    for (const status of TASK_STATUSES) this.counts.set(status, 0);
    this.specs.forEach((spec, i) => this.index.set(spec.key, i));
    // Live: tasks added while the run runs (addTasks) join it, so the mailbox knows them too.
    this.taskKeys = this.specs.map((spec) => spec.key);
    this.mailbox = new Mailbox(snapshot.mailbox ?? emptyMailbox(), {
      keys: this.taskKeys,
      indexOf: (key) => this.index.get(key),
      teammates: this.plan.teammates,
      settled: (i) => ['succeeded', 'failed', 'skipped'].includes(this.tasks[i].status),
      record: (type, fields) => this.events.record(type, this.clock, fields),
    });
    this.specs.forEach((spec, i) => {
      for (const dep of spec.dependsOn) {
        const d = this.index.get(dep);
        if (d === undefined) continue;
        this.dependents[d].push(i);
        if (this.tasks[d].status !== 'succeeded') this.waitingOn[i] += 1;
      }
    });
    for (const record of this.adjudications) this.outputsHeld += jsonBytes(record.result);
    this.tasks.forEach((task, i) => {
      this.outputsHeld += jsonBytes(task.output);
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
        cancelRequestedAt: this.cancelRequestedAt,
        executions: this.executions,
        maxConcurrent: this.maxConcurrent,
        events: this.events.snapshot(),
        mailbox: this.mailbox.snapshot(),
        members: this.members.snapshot(),
        spawns: this.spawns.snapshot(),
      }),
    ) as TeamRunSnapshot;
  }

  // ---- scheduling -------------------------------------------------------------------------

  protected get acceptingWork(): boolean {
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
    this.requestApprovals(now);
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

  protected backingOff(now: number): boolean {
    for (const i of this.ready.inOrder()) if (this.tasks[i].readyAt > now) return true;
    return false;
  }

  protected scopeBusy(spec: TaskSpec): boolean {
    if (spec.scope.length === 0) return false;
    for (const key of this.active.keys()) {
      if (scopesOverlap(spec.scope, this.specs[this.index.get(key)!].scope)) return true;
    }
    return false;
  }

  protected lease(i: number, reservation: Attempt['reservation'], now: number): Claim {
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
    this.clock = now;
    this.members.started(attempt.holder, task.key, now);
    const inbox = this.mailbox.deliver(task.key, attempt.holder, false);
    // Own properties even for a key such as "__proto__" (an assignment would set the prototype instead).
    const dependencyOutputs: Record<string, unknown> = Object.fromEntries(
      spec.dependsOn.map((dep) => [dep, this.tasks[this.index.get(dep)!].output ?? null]),
    );
    return {
      key: task.key,
      title: spec.title ?? task.key,
      attempt: attempt.attempt,
      fencingToken,
      leaseId: attempt.leaseId,
      holder: attempt.holder,
      activityId: attempt.activityId,
      ttlMs: spec.lease?.ttlMs ?? this.plan.lease.ttlMs,
      heartbeatEveryMs: heartbeatEveryMs(spec.lease ?? this.plan.lease),
      executor: spec.executor,
      dependencyOutputs,
      estimate: { tokens: spec.estimate?.tokens ?? 0, usd: spec.estimate?.usd ?? 0 },
      ...(inbox.length ? { inbox } : {}),
      ...(spec.allowSpawn ? { allowSpawn: true as const } : {}),
    };
  }

  /**
   * Approval tasks that became ready go straight to adjudication: no activity, no teammate,
   * no reservation. Each request has a fencing token of its own, so a `retry` asks again.
   */
  protected requestApprovals(now: number): void {
    const ready = [...this.ready.inOrder()].filter((i) => approvalOf(this.specs[i]) !== null);
    for (const i of ready) {
      const task = this.tasks[i];
      this.ready.remove(i);
      task.fencingToken += 1;
      task.startedAt ??= now;
      const request = {
        holder: APPROVAL_HOLDER,
        leaseId: `${this.workflowId}/${task.key}/${task.fencingToken}`,
        fencingToken: task.fencingToken,
      } as Attempt;
      this.toAdjudication(i, APPROVAL_CODE, request, now, { reason: approvalReason(this.specs[i]) });
    }
    if (ready.length) this.touch();
  }

  /** The earliest time a pending approval times out, if any does. */
  approvalDeadline(): number | null {
    let earliest: number | null = null;
    for (const record of this.adjudications) {
      const i = this.index.get(record.key);
      const at = i === undefined ? null : approvalDeadline(this.specs[i], record);
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    return earliest;
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
    // A lost attempt's usage is unknown: it is charged its reservation, and a spend limit cannot be trusted to hold.
    const usageUnknown = outcome.kind === 'lease-lost';
    const unpriced = usageUnknown ? false : !this.budget.settle(attempt.reservation, usage).ok;
    if (usageUnknown) this.budget.settleUnknown(attempt.reservation);
    const stopUnknown = usageUnknown && this.budget.limitsSpend;
    task.settledAt = now;
    // Still running at the deadline: the wall clock stopped it, whatever it returned (even before the timer fired).
    if (this.pastWallDeadline(now)) {
      attempt.stop ??= { kind: 'wall' };
      this.wallExpired(now);
    }
    const stop = attempt.stop;
    const evidence = this.hold('output' in outcome ? outcome.output : undefined);
    const identity = { key, holder: attempt.holder, leaseId: attempt.leaseId, fencingToken };
    let spawn: ReturnType<TeamRunCore['spawnOnSettle']> = null;
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
    } else if (stopUnknown) {
      this.toAdjudication(i, 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED', attempt, now, {
        reason: 'lease lost: the attempt stopped heartbeating; its outcome and usage are unknown, and the budget sets a token or dollar limit (usage-unknown)',
      });
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
    } else if (outcome.kind === 'completed' && !this.canHold(outcome.output)) {
      this.fail(i, this.outputsFullMessage(jsonBytes(outcome.output)), now, attempt);
    } else if (outcome.kind === 'completed' && (spawn = this.spawnOnSettle(i, attempt, outcome.tasks, now))?.kind === 'limit') {
      this.toAdjudication(i, SPAWN_LIMIT_CODE, attempt, now, { reason: spawn!.message, usage: usage ?? null, result: evidence ?? null });
    } else if (outcome.kind === 'completed' && !spawn) {
      this.succeed(i, outcome.output, now);
      this.events.record('task:completed', now, { key, fencingToken, attempt: attempt.attempt });
    } else {
      const message = spawn ? spawn.message : outcome.kind === 'failed' ? outcome.message : 'attempt cancelled unexpectedly';
      const nonRetryable = (outcome.kind === 'failed' && outcome.nonRetryable) || spawn?.kind === 'forbidden';
      if (nonRetryable || this.attemptsSpent(i)) {
        this.fail(i, message, now, attempt);
      } else {
        task.lastError = clip(message, RUN_LIMITS.errorChars);
        task.readyAt = now + this.retryOf(i).backoffMs;
        this.setStatus(task, 'ready');
        this.ready.add(i);
        this.events.record('task:failed', now, { key, fencingToken, error: task.lastError, willRetry: true });
      }
    }
    if (stopUnknown) this.stopForBudget('usage-unknown', now);
    this.clock = now;
    if (this.tasks[i].status === 'succeeded' || this.tasks[i].status === 'failed') this.sendFromOutcome(key, outcome, now);
    this.members.ended(attempt.holder, task.status === 'succeeded', task.status === 'succeeded' ? null : task.lastError ?? outcome.kind, now);
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
  protected notStarted(i: number, attempt: Attempt, reason: BudgetReason | null, message: string, now: number): void {
    const task = this.tasks[i];
    this.release(task, attempt);
    this.clock = now;
    this.members.unclaimed(attempt.holder, now);
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
    else if (!this.acceptingWork) this.skipTask(i, this.abortInfo ? 'run_aborted' : `budget_stopped: ${this.budget.reason}`, now);
    this.touch();
  }

  /**
   * Why an attempt that ended without an outcome (lease lost, or handed back by a worker
   * shutting down) cannot simply be leased again; null when it can. A released attempt does
   * not count against the attempts, and `onLeaseLost` is about lost leases only.
   */
  protected cannotReLease(i: number, lost: boolean): string | null {
    if (lost && this.specs[i].onLeaseLost === 'adjudicate') return 'onLeaseLost is "adjudicate"';
    if (lost && this.attemptsSpent(i)) return `all ${this.retryOf(i).maxAttempts} attempts spent`;
    if (!this.acceptingWork) return this.abortInfo ? 'the run was aborted' : `the run stopped taking work: ${this.budget.reason ?? 'closed'}`;
    return null;
  }

  protected retryOf(i: number) {
    return { ...this.plan.retry, ...this.specs[i].retry };
  }

  protected attemptsSpent(i: number): boolean {
    const task = this.tasks[i];
    return task.attempts - task.uncounted >= this.retryOf(i).maxAttempts;
  }

  protected release(task: TaskState, attempt: Attempt): void {
    task.current = null;
    this.active.delete(task.key);
    const slot = Number(attempt.holder.replace('teammate-', '')) - 1;
    if (slot >= 0) this.slots[slot] = false;
  }

  protected releaseLease(i: number, attempt: Attempt, now: number): void {
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

  /** Whether the run can hold one more output of this size (RUN_LIMITS.outputsHeldBytes). */
  canHold(output: unknown): boolean {
    return this.outputsHeld + jsonBytes(output) <= RUN_LIMITS.outputsHeldBytes;
  }

  protected outputsFullMessage(bytes: number): string {
    return (
      `output of ${bytes} bytes does not fit: the run holds ${this.outputsHeld} bytes of task outputs and results, ` +
      `and at most ${RUN_LIMITS.outputsHeldBytes} (outputs travel in the run's state; store large results elsewhere and output a reference)`
    );
  }

  /** Evidence an attempt left, held if it fits; else a note of what was left out. */
  protected hold(evidence: unknown): unknown {
    if (evidence === undefined) return undefined;
    if (this.canHold(evidence)) return evidence;
    return { omitted: `evidence of ${jsonBytes(evidence)} bytes: the run holds at most ${RUN_LIMITS.outputsHeldBytes} bytes of outputs` };
  }

  protected succeed(i: number, output: unknown, now: number): void {
    const task = this.tasks[i];
    this.outputsHeld += jsonBytes(output) - jsonBytes(task.output);
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
        else this.skipTask(d, this.abortInfo ? 'run_aborted' : `budget_stopped: ${this.budget.reason}`, now);
      }
    }
  }

  protected fail(i: number, reported: string, now: number, attempt?: Attempt): void {
    const task = this.tasks[i];
    const message = clip(reported, RUN_LIMITS.errorChars);
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

  protected skipDependents(i: number, reason: string, now: number): void {
    const stack = [...this.dependents[i]];
    while (stack.length) {
      const d = stack.pop()!;
      const status = this.tasks[d].status;
      if (status !== 'blocked' && status !== 'ready') continue;
      this.skipTask(d, reason, now);
      stack.push(...this.dependents[d]);
    }
  }

  protected skipTask(i: number, reason: string, now: number): void {
    const task = this.tasks[i];
    if (task.status === 'ready') this.ready.remove(i);
    task.skipReason = reason;
    task.settledAt = now;
    this.setStatus(task, 'skipped');
    this.events.record('task:skipped', now, { key: task.key, reason });
  }

  protected skipNotStarted(reason: string, now: number): void {
    this.tasks.forEach((task, i) => {
      if (task.status === 'blocked' || task.status === 'ready') this.skipTask(i, reason, now);
    });
  }

  protected toAdjudication(
    i: number,
    code: AdjudicationCode,
    attempt: Attempt,
    now: number,
    details: Partial<AdjudicationRecord>,
  ): void {
    const task = this.tasks[i];
    const record: AdjudicationRecord = {
      key: task.key,
      code: code === 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED' ? this.abortInfo?.code ?? ABORT_CODE_DEFAULT : code,
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
    if (record.reason !== null && this.pendingText() + record.reason.length > RUN_LIMITS.pendingTextChars) {
      record.reason = `(reason left out: pending adjudications hold ${RUN_LIMITS.pendingTextChars} chars of text already)`;
    }
    this.adjudications.push(record);
    this.outputsHeld += jsonBytes(record.result);
    task.lastError = `${code}: ${record.reason ?? ''}`.trim();
    this.setStatus(task, 'adjudication');
    this.events.record('task:adjudication-required', now, { key: task.key, code: record.code, fencingToken: attempt.fencingToken });
  }

  /** Characters of free text the pending adjudications hold. */
  protected pendingText(): number {
    let chars = 0;
    for (const r of this.adjudications) {
      if (!r.decision) chars += (r.reason?.length ?? 0) + (r.evidenceDigest?.length ?? 0) + (r.requestId?.length ?? 0) + (r.actor?.length ?? 0);
    }
    return chars;
  }

  /** Keeps the newest decided records (RUN_LIMITS.decidedAdjudications) and every pending one. */
  protected forgetOldDecided(): void {
    let decided = 0;
    for (const r of this.adjudications) if (r.decision) decided += 1;
    for (let r = 0; r < this.adjudications.length && decided > RUN_LIMITS.decidedAdjudications; ) {
      const record = this.adjudications[r];
      if (!record.decision) {
        r += 1;
        continue;
      }
      this.outputsHeld -= jsonBytes(record.result);
      this.adjudications.splice(r, 1);
      decided -= 1;
    }
  }

  protected stopForBudget(reason: NonNullable<Budget['reason']>, now: number): void {
    if (!this.budget.stop(reason)) return;
    this.events.record('run:budget-exhausted', now, { reason, budget: this.budget.view(now, this.startedAt).used });
    this.skipNotStarted(`budget_stopped: ${reason}`, now);
    this.touch();
  }

  // ---- added tasks (addTasks) ---------------------------------------------------------------

  /**
   * Every check of new tasks but who sends them: shape, the running graph (as a plan's graph is
   * checked), whether the run still takes work, and the spawn limits. Throws `TeamControlError`
   * with the problem's code and path; returns the parsed request, and the depth of its tasks.
   */
  protected checkAddition(payload: unknown): { request: AddTasksRequest; depth: number } {
    const parsed = AddTasksRequestSchema.safeParse(payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s))` : '';
      throw new TeamControlError('schema', `addTasks: ${formatPath(issue.path)}: ${issue.message}${more}`);
    }
    const request = parsed.data;
    let depth = 0;
    if (request.parent !== undefined) {
      const p = this.index.get(request.parent);
      if (p === undefined) throw new TeamControlError('unknown_parent', `addTasks: parent: no task "${request.parent}" in the run`);
      depth = (this.tasks[p].depth ?? 0) + 1;
    }
    if (this.spawns.earlier(request.requestId)) return { request, depth };
    if (!this.acceptingWork) {
      const why = this.abortInfo ? 'was aborted' : this.budget.stopped ? `stopped on its budget (${this.budget.reason})` : 'is closing';
      throw new TeamControlError('run_not_accepting_work', `addTasks: the run ${why}; it takes no new tasks`);
    }
    const graph = { has: (key: string) => this.index.has(key), size: this.tasks.length, keys: () => this.index.keys() };
    const problems = validateAddedTasks(request.tasks, graph, this.plan);
    if (problems.length) {
      const [first] = problems;
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
      throw new TeamControlError(first.code, `addTasks: ${first.path}: ${first.message}${more}`);
    }
    const over = this.spawns.overLimit(this.plan.budget, request.tasks.length, depth);
    if (over) throw new TeamControlError(over.limit, `addTasks: ${over.message}`);
    return { request, depth };
  }

  /** Adds checked tasks at the end of the run, all at once; a repeated requestId adds nothing again. */
  protected applyAddition(request: AddTasksRequest, depth: number, now: number): { ok: true; added: string[]; idempotent?: true } {
    const earlier = this.spawns.earlier(request.requestId);
    if (earlier) {
      const added = this.specs.slice(earlier.from, earlier.from + earlier.count).map((spec) => spec.key);
      return { ok: true, added, idempotent: true };
    }
    const from = this.tasks.length;
    for (const spec of request.tasks) {
      const i = this.plan.tasks.push(spec) - 1;
      this.tasks.push({
        ...newTaskState(spec.key, 'blocked', now),
        ...(request.parent !== undefined ? { parent: request.parent, depth } : {}),
      });
      this.counts.set('blocked', (this.counts.get('blocked') ?? 0) + 1);
      this.index.set(spec.key, i);
      this.taskKeys.push(spec.key);
      this.dependents.push([]);
      this.waitingOn.push(0);
    }
    for (let i = from; i < this.tasks.length; i++) {
      for (const dep of this.specs[i].dependsOn) {
        const d = this.index.get(dep)!;
        this.dependents[d].push(i);
        if (this.tasks[d].status !== 'succeeded') this.waitingOn[i] += 1;
      }
    }
    this.spawns.record(request.requestId, from, request.tasks.length);
    const added = request.tasks.map((spec) => spec.key);
    this.events.record('task:added', now, {
      count: added.length,
      keys: added.slice(0, ADDED_EVENT_KEYS),
      parent: request.parent ?? null,
      depth,
      actor: request.actor ?? null,
      requestId: request.requestId,
    });
    // In run order, so a new task depending on an earlier new one that can never run is skipped too.
    for (let i = from; i < this.tasks.length; i++) {
      const failedDep = this.specs[i].dependsOn.find((dep) => ['failed', 'skipped'].includes(this.tasks[this.index.get(dep)!].status));
      if (failedDep !== undefined) this.skipTask(i, `dependency "${failedDep}" ${this.tasks[this.index.get(failedDep)!].status}`, now);
      else if (this.waitingOn[i] === 0) {
        this.setStatus(this.tasks[i], 'ready');
        this.ready.add(i);
      }
    }
    this.touch();
    return { ok: true, added };
  }

  /**
   * What the attempt that settles task `i` successfully asked to add (`::teamrun-tasks::` lines,
   * an llm answer's `tasks`): added now, under the task's name and fencing token. Over a spawn
   * limit (or once the run takes no work) the task goes to adjudication and nothing is added;
   * tasks that are not a valid addition fail the attempt. Null when there is nothing to add or it was added.
   */
  protected spawnOnSettle(
    i: number,
    attempt: Attempt,
    tasks: unknown,
    now: number,
  ): { kind: 'limit' | 'invalid' | 'forbidden'; message: string } | null {
    if (tasks === undefined) return null;
    const key = this.tasks[i].key;
    if (!this.specs[i].allowSpawn) {
      return { kind: 'forbidden', message: `task "${key}" asked to add tasks but its plan entry has no "allowSpawn": true` };
    }
    const payload = { tasks, parent: key, fencingToken: attempt.fencingToken, requestId: `${key}#${attempt.fencingToken}` };
    try {
      const { request, depth } = this.checkAddition(payload);
      this.applyAddition(request, depth, now);
      return null;
    } catch (err) {
      if (!(err instanceof TeamControlError)) throw err;
      const limit = err.code === 'max-spawned-tasks' || err.code === 'max-depth' || err.code === 'run_not_accepting_work';
      return { kind: limit ? 'limit' : 'invalid', message: `${err.code}: ${err.message}` };
    }
  }

  /** Tasks added during the run, in all. */
  get addedTasks(): number {
    return this.spawns.count;
  }

  /** Parent -> children of added tasks, parents in run order (at most `maxParents`, each with at most `maxChildren`). */
  spawnTree(maxParents = 20, maxChildren = 20): Array<{ parent: string; children: string[]; total: number }> {
    // The tree changes only when tasks are added: the Web UI's details ask on every step.
    const cacheKey = `${this.tasks.length}/${maxParents}/${maxChildren}`;
    if (this.treeCache?.key === cacheKey) return this.treeCache.tree;
    const byParent = new Map<string, { parent: string; children: string[]; total: number }>();
    for (const task of this.tasks) {
      if (task.parent === undefined) continue;
      let entry = byParent.get(task.parent);
      if (!entry) {
        if (byParent.size >= maxParents) continue;
        entry = { parent: task.parent, children: [], total: 0 };
        byParent.set(task.parent, entry);
      }
      entry.total += 1;
      if (entry.children.length < maxChildren) entry.children.push(task.key);
    }
    this.treeCache = { key: cacheKey, tree: [...byParent.values()] };
    return this.treeCache.tree;
  }

  // ---- wall clock -------------------------------------------------------------------------

  wallDeadline(): number | null {
    const max = this.plan.budget.maxWallMs;
    return max === undefined ? null : this.startedAt + max;
  }

  protected pastWallDeadline(now: number): boolean {
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

  protected stopActive(stop: AttemptStop): number {
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

  protected keyOf(attempt: Attempt): string {
    return attempt.activityId.slice(0, attempt.activityId.lastIndexOf('#'));
  }

  /** Attempts the workflow must cancel now (interrupted, aborted, out of wall clock). */
  drainCancellations(): Array<{ key: string; fencingToken: number }> {
    const cancels = this.pendingCancels.splice(0);
    for (const { key } of cancels) {
      const attempt = this.active.get(key);
      if (attempt?.stopQueue) this.pendingStops.push({ queue: attempt.stopQueue, leaseId: attempt.leaseId });
    }
    return cancels;
  }

  /**
   * Stops the workflow must send now, one per worker stop queue (after `drainCancellations`):
   * the direct path to stopped attempts that announced where they run. Their cancellation (the
   * heartbeat-response path) is sent whatever happens to these.
   */
  drainStops(): StopRequest[] {
    return stopsByQueue(this.pendingStops.splice(0));
  }

  /**
   * Running attempts say which worker queue reaches them (`attemptRunning`, sent by the attempts
   * themselves past `STOP_ANNOUNCE_AFTER_MS`). Anything but the live attempt of a task is ignored;
   * an attempt already stopped gets its stop at once. Nothing is recorded: it is plumbing.
   * Returns how many attempts it applied to.
   */
  attemptsRunning(payload: unknown): number {
    let applied = 0;
    for (const announcement of parseAnnouncements(payload)) {
      const attempt = this.active.get(announcement.key);
      if (!attempt || attempt.fencingToken !== announcement.fencingToken || attempt.stopQueue) continue;
      attempt.stopQueue = announcement.queue;
      applied += 1;
      if (attempt.stop) {
        this.pendingStops.push({ queue: attempt.stopQueue, leaseId: attempt.leaseId });
        this.touch();
      }
    }
    return applied;
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
  finish(now: number): RunResult {
    this.tasks.forEach((task, i) => {
      if (task.status === 'blocked' || task.status === 'ready') this.skipTask(i, 'run closed before its dependencies settled', now);
    });
    const status = this.runStatus();
    const cancellation = this.cancellationView();
    this.clock = now;
    this.members.shutdown(now);
    this.events.record('run:end', now, { status, stats: this.stats(), ...(cancellation ? { cancelled: true } : {}) });
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
      ...(cancellation ? { cancellation } : {}),
    };
  }

  /** True once Temporal's cancellation was requested: the run closes as Canceled, with its result as the details. */
  get cancelling(): boolean {
    return this.cancelRequestedAt !== null;
  }

  private cancellationView(): CancellationView | undefined {
    if (this.cancelRequestedAt === null) return undefined;
    const abandoned = this.pendingAdjudications;
    let message = 'cancelled: every adjudication was decided before the run closed';
    if (abandoned > 0) {
      const why = this.closed === 'adjudication-timeout' ? 'nobody decided within adjudicationTimeoutMs' : 'awaitAdjudication is false';
      message = `cancelled: ${abandoned} adjudication(s) abandoned (${why}); they can no longer be decided`;
    }
    return { requestedAt: this.cancelRequestedAt, abandonedAdjudications: abandoned, message };
  }

  // ---- views (queries) --------------------------------------------------------------------

  stats(): RunStats {
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

  status(now: number): StatusView {
    return {
      name: this.plan.name,
      state: this.state(),
      stats: this.stats(),
      budget: this.budgetView(now),
      teammates: { requested: this.plan.teammates, active: this.active.size },
      startedAt: this.startedAt,
      pendingAdjudications: this.pendingAdjudications,
      ...(this.cancelRequestedAt !== null ? { cancelRequestedAt: this.cancelRequestedAt } : {}),
      executions: this.executions,
      maxConcurrent: this.maxConcurrent,
    };
  }

  budgetView(now: number): BudgetView {
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
  activeClaims(): ActiveClaim[] {
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

  eventsView(query: { after?: number; limit?: number } = {}): EventsPage {
    return this.events.page(query.after, query.limit);
  }

  /** Records an event from the workflow shell (e.g. a continue-as-new boundary). */
  record(type: string, now: number, fields: Record<string, unknown> = {}): void {
    this.events.record(type, now, fields);
  }

  /**
   * The `::teamrun-message::` lines of the attempt that settled its task, sent as that task;
   * one that cannot be sent is recorded as `control:rejected` with its code.
   */
  protected sendFromOutcome(key: string, outcome: AttemptOutcome, now: number): void {
    const messages = 'messages' in outcome && Array.isArray(outcome.messages) ? outcome.messages : [];
    for (const raw of messages.slice(0, MAILBOX_LIMITS.perAttempt)) {
      const { to, subject, body } = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
      try {
        if (typeof to !== 'string' || (subject !== undefined && typeof subject !== 'string')) {
          throw new TeamControlError('TEAM_MAILBOX_MESSAGE_INVALID', 'sendMessage: a ::teamrun-message:: line needs "to" (a string), "body" and an optional string "subject"');
        }
        this.mailbox.send({ from: key, to, subject: subject?.slice(0, MAILBOX_LIMITS.subjectChars), body }, now);
      } catch (err) {
        if (!(err instanceof TeamControlError)) throw err;
        this.events.record('control:rejected', now, { message: 'sendMessage', key, reason: err.code, detail: err.message.slice(0, 300) });
      }
    }
  }

  protected setStatus(task: TaskState, status: TaskStatus): void {
    this.counts.set(task.status, (this.counts.get(task.status) ?? 0) - 1);
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    task.status = status;
  }

  /** The time of the change in progress, for the events the mailbox and members record. */
  protected clock = 0;

  protected touch(): void {
    this.version += 1;
  }
}

/** A task as it enters the run (from the plan or added while it runs): never attempted. */
export function newTaskState(key: string, status: 'ready' | 'blocked', now: number): TaskState {
  return {
    key,
    status,
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
  };
}

function addUsage(task: TaskState, usage: ReportedUsage | undefined): void {
  if (!usage) return;
  task.usage.inputTokens += usage.inputTokens ?? 0;
  task.usage.outputTokens += usage.outputTokens ?? 0;
  task.usage.cacheTokens += usage.cacheTokens ?? 0;
  task.usage.costUsd += usage.costUsd ?? 0;
}
