/**
 * The parts of one team run, composed: the task graph, the leases, the adjudication queue, the
 * budget, the event log, the mailbox, the members and the added-task record, plus the run's own
 * lifecycle (abort, closing, cancellation) and the moves that touch more than one part (a task
 * succeeds, fails, goes to adjudication; the run stops on its budget or its wall clock). Pure and
 * deterministic: the caller passes the time. `snapshot()` is everything continue-as-new carries.
 */
import type { AgentProgress } from './types';
import type { LedgerTreeGrant, RunStats } from '../contract';
import type { TaskSpec, TeamPlan } from '../plan/schema';
import { jsonBytes } from '../plan/bytes';
import { Adjudications, type DecisionLog } from './adjudications';
import type { ChainHead } from './case-chain';
import { RUN_LIMITS } from './bounds';
import { Budget, type BudgetSnapshot } from './budget';
import { ABORT_CODE_DEFAULT } from '../plan/requests/control';
import { EventLog, type EventLogSnapshot } from './events';
import { TaskGraph } from './graph';
import { Leases } from './leases';
import { Mailbox, emptyMailbox, type MailboxSnapshot } from './mailbox';
import { Members, emptyMembers, type MembersSnapshot } from './members';
import { Spawns, type SpawnSnapshot } from './spawn';
import type { AdjudicationCode, AdjudicationRecord, Attempt, BudgetReason, TaskState } from './types';
import { extended } from '../objects';

export interface TeamRunSnapshot {
  plan: TeamPlan;
  workflowId: string;
  startedAt: number;
  tasks: TaskState[];
  budget: BudgetSnapshot;
  adjudications: AdjudicationRecord[];
  /**
   * Decision ids already applied (the newest RUN_LIMITS.decisionIds), with the task each decided; `seq` orders them.
   */
  decisions: DecisionLog;
  /** The decision chain's head (case-chain.ts); absent before the first chained decision. */
  decisionChain?: ChainHead;
  /** `code` (absent in older snapshots) is what the abort's adjudications carry. */
  abort: {
    reason: string | null;
    requestId: string | null;
    actor: string | null;
    at: number;
    code?: string;
    /** Set when the parent run cascaded the stop (cascade.ts): the run then ends without waiting for adjudication. */
    fromParent?: 'interrupt' | 'abort';
  } | null;
  /** Why the run closes with adjudications still pending, if it does. */
  closed: 'adjudication-timeout' | 'workflow-cancelled' | null;
  executions: number;
  maxConcurrent: number;
  /** Leases that expired in the run so far (absent in older snapshots). */
  expiredLeases?: number;
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

/** Who an adjudication record names as holding the task: an attempt, or an approval request. */
export type LeaseIdentity = Pick<Attempt, 'holder' | 'leaseId' | 'fencingToken'>;

export class RunContext {
  /** Bumped on every change, so the workflow can wait for "something happened". */
  version = 0;
  /** The time of the change in progress, for the events the mailbox and members record. */
  clock = 0;
  /**
   * Whether this run's history was recorded with rule change `id` (the workflow's `patched()`), asked only where
   * the rule applies; outside a workflow every rule is the current one.
   */
  patched: (id: string) => boolean = () => true;

  readonly plan: TeamPlan;
  readonly workflowId: string;
  readonly startedAt: number;
  readonly graph: TaskGraph;
  readonly leases: Leases;
  readonly adjudications: Adjudications;
  readonly budget: Budget;
  readonly events: EventLog;
  readonly mailbox: Mailbox;
  readonly members: Members;
  readonly spawns: Spawns;
  /** Which turn each running agent is in (team/agents.ts); not in the snapshot. */
  readonly agents = new Map<string, AgentProgress>();
  /**
   * A child run's ask for more attempts (team/child-budget.ts): whether it has a parent to ask (the workflow says),
   * how many the last claim step wanted, and the parent's refusal once it refused. Not in the snapshot.
   */
  readonly taskAsk: { parent: boolean; wanted: number; refused: string | null } = {
    parent: false,
    wanted: 0,
    refused: null,
  };
  /**
   * What the run's shared ledger lets it work within (team/ledger-tree.ts): `registering` until the ledger answered,
   * null without a ledger (or an answer). Not in the snapshot: each run asks again as it starts.
   */
  ledgerTree: LedgerTreeGrant | 'registering' | null = null;
  abort: TeamRunSnapshot['abort'];
  closed: TeamRunSnapshot['closed'];
  awaitingSince: number | null;
  cancelRequestedAt: number | null;
  executions: number;
  maxConcurrent: number;
  expiredLeases: number;
  /** Bytes of task outputs, accepted results and evidence the run holds (bounded by RUN_LIMITS.outputsHeldBytes). */
  private outputsHeld = 0;

  constructor(snapshot: TeamRunSnapshot) {
    this.plan = snapshot.plan;
    this.workflowId = snapshot.workflowId;
    this.startedAt = snapshot.startedAt;
    this.budget = new Budget(snapshot.budget);
    this.events = new EventLog(snapshot.events);
    this.adjudications = new Adjudications(snapshot.adjudications, snapshot.decisions, snapshot.decisionChain);
    this.abort = snapshot.abort;
    this.closed = snapshot.closed;
    this.awaitingSince = snapshot.awaitingSince ?? null;
    this.cancelRequestedAt = snapshot.cancelRequestedAt ?? null;
    this.executions = snapshot.executions;
    this.maxConcurrent = snapshot.maxConcurrent;
    this.expiredLeases = snapshot.expiredLeases ?? 0;
    const record = (type: string, fields: Record<string, unknown>) => this.events.record(type, this.clock, fields);
    const members = snapshot.members ?? emptyMembers(this.plan.teammates, snapshot.startedAt);
    this.members = new Members(members, !!this.plan.hooks?.teammateIdle, record);
    this.spawns = new Spawns(snapshot.spawns);
    this.graph = new TaskGraph(this.plan.tasks, snapshot.tasks, this.events);
    this.graph.runId = this.workflowId;
    this.mailbox = new Mailbox(snapshot.mailbox ?? emptyMailbox(), {
      keys: this.graph.keys,
      indexOf: (key) => this.graph.indexOf(key),
      teammates: this.plan.teammates,
      settled: (i) => this.graph.isSettled(i),
      record,
    });
    this.leases = new Leases(this.plan.teammates);
    for (const r of this.adjudications.records) this.outputsHeld += jsonBytes(r.result);
    for (const task of this.graph.tasks) {
      this.outputsHeld += jsonBytes(task.output);
      if (task.current) this.leases.restore(task.key, task.current);
    }
  }

  snapshot(): TeamRunSnapshot {
    return JSON.parse(
      JSON.stringify({
        plan: this.plan,
        workflowId: this.workflowId,
        startedAt: this.startedAt,
        tasks: this.graph.tasks,
        budget: this.budget.snapshot(),
        adjudications: this.adjudications.records,
        decisions: this.adjudications.snapshotDecisions(),
        ...(this.adjudications.chain.seq > 0 ? { decisionChain: this.adjudications.chain } : {}),
        abort: this.abort,
        closed: this.closed,
        awaitingSince: this.awaitingSince,
        cancelRequestedAt: this.cancelRequestedAt,
        executions: this.executions,
        maxConcurrent: this.maxConcurrent,
        ...(this.expiredLeases ? { expiredLeases: this.expiredLeases } : {}),
        events: this.events.snapshot(),
        mailbox: this.mailbox.snapshot(),
        members: this.members.snapshot(),
        spawns: this.spawns.snapshot(),
      }),
    ) as TeamRunSnapshot;
  }

  /** The graph's counts, with the ready tasks a teammate could take now and the leases that expired. */
  stats(): RunStats {
    const claimable = this.graph.ready.size - this.graph.waitingTasks(0).total;
    return extended(this.graph.stats(), { claimable, expiredLeases: this.expiredLeases });
  }

  touch(): void {
    this.version += 1;
  }

  spec(i: number): TaskSpec {
    return this.graph.specs[i];
  }

  get acceptingWork(): boolean {
    return !this.abort && !this.budget.stopped && !this.closed;
  }

  /** The skip reason of a task that can no longer start because the run takes no work. */
  notTakingWorkSkip(): string {
    return this.abort ? 'run_aborted' : `budget_stopped: ${this.budget.reason}`;
  }

  /** Why an attempt cannot be leased again once the run takes no work. */
  notTakingWorkReason(): string {
    return this.abort ? 'the run was aborted' : `the run stopped taking work: ${this.budget.reason ?? 'closed'}`;
  }

  get pendingAdjudications(): number {
    return this.graph.count('adjudication');
  }

  retryOf(i: number): TeamPlan['retry'] {
    return { ...this.plan.retry, ...this.spec(i).retry };
  }

  attemptsSpent(i: number): boolean {
    const task = this.graph.tasks[i];
    return task.attempts - task.uncounted >= this.retryOf(i).maxAttempts;
  }

  /** `working` while attempts run or tasks can still start; then `awaiting_adjudication` or `done`. */
  phase(): 'working' | 'awaiting_adjudication' | 'done' {
    if (this.leases.size > 0) return 'working';
    if (this.acceptingWork && this.graph.ready.size > 0) return 'working';
    // A stop cascaded from the parent ends the run with its adjudications on record: the parent's task decides.
    const waits = this.plan.awaitAdjudication && !this.closed && !this.abort?.fromParent;
    if (this.pendingAdjudications > 0 && waits) return 'awaiting_adjudication';
    return 'done';
  }

  // ---- outputs held -----------------------------------------------------------------------

  /** Whether the run can hold one more output of this size (RUN_LIMITS.outputsHeldBytes). */
  canHold(output: unknown): boolean {
    return this.outputsHeld + jsonBytes(output) <= RUN_LIMITS.outputsHeldBytes;
  }

  outputsFullMessage(bytes: number): string {
    return (
      `output of ${bytes} bytes does not fit: the run holds ${this.outputsHeld} bytes of task outputs and results, ` +
      `and at most ${RUN_LIMITS.outputsHeldBytes} (outputs travel in the run's state; store large results elsewhere ` +
      `and output a reference)`
    );
  }

  /** Evidence an attempt left, held if it fits; else a note of what was left out. */
  hold(evidence: unknown): unknown {
    if (evidence === undefined) return undefined;
    if (this.canHold(evidence)) return evidence;
    return {
      omitted:
        `evidence of ${jsonBytes(evidence)} bytes: the run holds at most ${RUN_LIMITS.outputsHeldBytes} bytes ` +
        `of outputs`,
    };
  }

  // ---- moves across parts -----------------------------------------------------------------

  succeed(i: number, output: unknown, now: number): void {
    this.outputsHeld += jsonBytes(output) - jsonBytes(this.graph.tasks[i].output);
    this.graph.succeed(i, output, now, this.acceptingWork ? null : this.notTakingWorkSkip());
  }

  fail(i: number, reported: string, now: number, attempt?: Attempt): void {
    this.graph.fail(i, reported, now, attempt?.fencingToken ?? this.graph.tasks[i].fencingToken);
  }

  toAdjudication(
    i: number,
    code: AdjudicationCode,
    holder: LeaseIdentity,
    now: number,
    details: Partial<AdjudicationRecord>,
  ): void {
    const task = this.graph.tasks[i];
    const record: AdjudicationRecord = {
      key: task.key,
      code: code === 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED' ? (this.abort?.code ?? ABORT_CODE_DEFAULT) : code,
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
      ...(details.dependents ? { dependents: details.dependents } : {}),
    };
    this.adjudications.add(record);
    this.outputsHeld += jsonBytes(record.result);
    task.lastError = `${code}: ${record.reason ?? ''}`.trim();
    this.graph.setStatus(task, 'adjudication');
    this.events.record('task:adjudication-required', now, {
      key: task.key,
      code: record.code,
      fencingToken: holder.fencingToken,
    });
  }

  /** Keeps the newest decided adjudication records; their results stop counting as held. */
  forgetOldDecided(): void {
    this.outputsHeld -= this.adjudications.forgetOldDecided();
  }

  stopForBudget(reason: BudgetReason, now: number): void {
    if (!this.budget.stop(reason)) return;
    this.events.record('run:budget-exhausted', now, { reason, budget: this.budget.view(now, this.startedAt).used });
    this.graph.skipNotStarted(`budget_stopped: ${reason}`, now);
    this.touch();
  }

  // ---- wall clock -------------------------------------------------------------------------

  wallDeadline(): number | null {
    // The budget's own limits: tightenBudget may have lowered the plan's.
    const max = this.budget.limits.maxWallMs;
    return max === undefined ? null : this.startedAt + max;
  }

  pastWallDeadline(now: number): boolean {
    const deadline = this.wallDeadline();
    return deadline !== null && now >= deadline;
  }

  /** The wall-clock budget ran out: nothing new starts, active attempts are stopped into adjudication. */
  wallExpired(now: number): void {
    if (this.budget.stopped && this.budget.reason === 'max-wall-ms') return;
    this.leases.stopAll({ kind: 'wall' });
    this.stopForBudget('max-wall-ms', now);
    this.touch();
  }
}
