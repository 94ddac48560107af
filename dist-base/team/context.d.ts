/**
 * The parts of one team run, composed: the task graph, the leases, the adjudication queue, the
 * budget, the event log, the mailbox, the members and the added-task record, plus the run's own
 * lifecycle (abort, closing, cancellation) and the moves that touch more than one part (a task
 * succeeds, fails, goes to adjudication; the run stops on its budget or its wall clock). Pure and
 * deterministic: the caller passes the time. `snapshot()` is everything continue-as-new carries.
 */
import type { AgentProgress } from './types';
import type { TaskSpec, TeamPlan } from '../plan/schema';
import { Adjudications, type DecisionLog } from './adjudications';
import { Budget, type BudgetSnapshot } from './budget';
import { EventLog, type EventLogSnapshot } from './events';
import { TaskGraph } from './graph';
import { Leases } from './leases';
import { Mailbox, type MailboxSnapshot } from './mailbox';
import { Members, type MembersSnapshot } from './members';
import { Spawns, type SpawnSnapshot } from './spawn';
import type { AdjudicationCode, AdjudicationRecord, Attempt, BudgetReason, TaskState } from './types';
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
    /** `code` (absent in older snapshots) is what the abort's adjudications carry. */
    abort: {
        reason: string | null;
        requestId: string | null;
        actor: string | null;
        at: number;
        code?: string;
    } | null;
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
/** Who an adjudication record names as holding the task: an attempt, or an approval request. */
export type LeaseIdentity = Pick<Attempt, 'holder' | 'leaseId' | 'fencingToken'>;
export declare class RunContext {
    /** Bumped on every change, so the workflow can wait for "something happened". */
    version: number;
    /** The time of the change in progress, for the events the mailbox and members record. */
    clock: number;
    /**
     * Whether this run's history was recorded with rule change `id` (the workflow's `patched()`), asked only where
     * the rule applies; outside a workflow every rule is the current one.
     */
    patched: (id: string) => boolean;
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
    readonly agents: Map<string, AgentProgress>;
    abort: TeamRunSnapshot['abort'];
    closed: TeamRunSnapshot['closed'];
    awaitingSince: number | null;
    cancelRequestedAt: number | null;
    executions: number;
    maxConcurrent: number;
    /** Bytes of task outputs, accepted results and evidence the run holds (bounded by RUN_LIMITS.outputsHeldBytes). */
    private outputsHeld;
    constructor(snapshot: TeamRunSnapshot);
    snapshot(): TeamRunSnapshot;
    touch(): void;
    spec(i: number): TaskSpec;
    get acceptingWork(): boolean;
    /** The skip reason of a task that can no longer start because the run takes no work. */
    notTakingWorkSkip(): string;
    /** Why an attempt cannot be leased again once the run takes no work. */
    notTakingWorkReason(): string;
    get pendingAdjudications(): number;
    retryOf(i: number): TeamPlan['retry'];
    attemptsSpent(i: number): boolean;
    /** `working` while attempts run or tasks can still start; then `awaiting_adjudication` or `done`. */
    phase(): 'working' | 'awaiting_adjudication' | 'done';
    /** Whether the run can hold one more output of this size (RUN_LIMITS.outputsHeldBytes). */
    canHold(output: unknown): boolean;
    outputsFullMessage(bytes: number): string;
    /** Evidence an attempt left, held if it fits; else a note of what was left out. */
    hold(evidence: unknown): unknown;
    succeed(i: number, output: unknown, now: number): void;
    fail(i: number, reported: string, now: number, attempt?: Attempt): void;
    toAdjudication(i: number, code: AdjudicationCode, holder: LeaseIdentity, now: number, details: Partial<AdjudicationRecord>): void;
    /** Keeps the newest decided adjudication records; their results stop counting as held. */
    forgetOldDecided(): void;
    stopForBudget(reason: BudgetReason, now: number): void;
    wallDeadline(): number | null;
    pastWallDeadline(now: number): boolean;
    /** The wall-clock budget ran out: nothing new starts, active attempts are stopped into adjudication. */
    wallExpired(now: number): void;
}
