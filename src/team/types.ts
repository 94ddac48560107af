/**
 * The run's internal state: tasks, the attempt holding each lease, what an attempt turned out to
 * be, and the claims handed to the workflow. Pure data; the rules that move it are elsewhere in
 * src/team. Public shapes are declared in src/contract and re-exported here for src/team's use.
 */
import type { ExecutorSpec, Usage } from '../plan/schema';
import type {
  AdjudicationCode,
  AdjudicationDecision,
  AdjudicationRecord,
  BudgetReason,
  Interruption,
  MailMessage,
  RunEvent,
  RunState,
  RunStatus,
  TaskStatus,
  UsageTotals,
} from '../contract';

export type {
  AdjudicationCode,
  AdjudicationDecision,
  AdjudicationRecord,
  BudgetReason,
  Interruption,
  RunEvent,
  RunState,
  RunStatus,
  TaskStatus,
  UsageTotals,
};

export const TASK_STATUSES: readonly TaskStatus[] = [
  'blocked',
  'ready',
  'leased',
  'succeeded',
  'failed',
  'adjudication',
  'skipped',
];

/** Usage as the worker reports it: `costUsd` is filled from the price table when the model is priced. */
export type ReportedUsage = Usage;

/** Why the workflow cancelled an attempt; decides where its outcome goes. */
export type AttemptStop =
  | { kind: 'interrupt'; interruption: Interruption }
  | { kind: 'abort'; requireAdjudication: boolean }
  | { kind: 'wall' };

export interface Reservation {
  tokens: number;
  usd: number;
}

/** An attempt's grant as its worker counts it: null where no limit applies. */
export interface Grant {
  tokens: number | null;
  usd: number | null;
  /** The run's `maxUsd` is set: usage of a model with no price would stop it, so the worker checks before spending. */
  pricesRequired?: boolean;
  /** The run counts agent model calls (`budget.maxTurns`, `budget.tree.maxTurns`): each is asked for first. */
  turns?: true;
}

/** The live attempt that holds a task's lease. */
export interface Attempt {
  attempt: number;
  fencingToken: number;
  leaseId: string;
  holder: string;
  activityId: string;
  startedAt: number;
  workerIdentity: string | null;
  reservation: Reservation;
  stop: AttemptStop | null;
  /**
   * Where a stop reaches the attempt at once (its worker's own task queue), once it announced it;
   * see src/plan/lease-pace.ts.
   */
  stopQueue?: string;
  /**
   * The head of the hash chain the attempt's step signals carry (src/agent/chain.ts): the anchor its
   * worker confirmed, then the last link taken. In the snapshot, so a continued run goes on taking them.
   */
  stepsChain?: string;
  /** A team task's attempt: the child run the parent started for it (its only identity the parent trusts). */
  child?: { workflowId: string; runId: string };
  /**
   * Team runs this attempt started through its worker (`linkRun`, src/team/coordinated.ts): each is aborted when the
   * attempt ends. In the snapshot, so a carried attempt keeps its links.
   */
  linkedRuns?: LinkedRun[];
}

/** A run an attempt started, and the actor that run takes the coordinator's abort from. */
export interface LinkedRun {
  runId: string;
  actor: string | null;
}

export interface TaskState {
  key: string;
  status: TaskStatus;
  /** Attempts started, all kinds. */
  attempts: number;
  /** Attempts that do not count against `maxAttempts` (released by a shutting-down worker, or before a human retry). */
  uncounted: number;
  /** Highest fencing token issued for this task; the next attempt gets a greater one. */
  fencingToken: number;
  current: Attempt | null;
  /** Teammate slot of the latest attempt. */
  holder: string | null;
  /** Identity of the attempt whose lease was lost or released, reported as `lease:changed` when the next one starts. */
  previousLease: { holder: string; leaseId: string; fencingToken: number; workerIdentity: string | null } | null;
  readyAt: number;
  startedAt: number | null;
  settledAt: number | null;
  lastError: string | null;
  skipReason: string | null;
  /** Why a ready task was not claimed at the last claim: "waiting for budget: needs ..."; absent otherwise. */
  waiting?: string;
  usage: UsageTotals;
  output?: unknown;
  /** The task that added this one (`addTasks`), absent for plan tasks and tasks a person added without one. */
  parent?: string;
  /** Length of the parent chain from a plan task; absent means 0. */
  depth?: number;
}

/** What an attempt turned out to be, as the workflow saw it from Temporal. */
export type AttemptOutcome =
  /**
   * `tasks`: what the attempt asked to add (`::teamrun-tasks::` lines, an llm answer), applied only if it settles the
   * task.
   */
  | {
      kind: 'completed';
      output?: unknown;
      usage?: ReportedUsage;
      workerIdentity?: string;
      messages?: unknown[];
      tasks?: unknown[];
      /** The executor marked its usage unknown (LiveBudget.markUnknown): the budget says so. */
      usageUnknown?: boolean;
    }
  | {
      kind: 'failed';
      message: string;
      errorType?: string;
      nonRetryable: boolean;
      usage?: ReportedUsage;
      output?: unknown;
      workerIdentity?: string;
      /** `::teamrun-message::` lines, sent when this attempt settles its task. */
      messages?: unknown[];
      usageUnknown?: boolean;
    }
  /** Heartbeats stopped: the worker died, hung or was frozen. */
  | { kind: 'lease-lost'; workerIdentity?: string }
  /** The attempt acknowledged the workflow's cancellation. */
  | { kind: 'cancelled'; usage?: ReportedUsage; output?: unknown; workerIdentity?: string; usageUnknown?: boolean }
  /** The worker shut down gracefully and handed the attempt back. */
  | { kind: 'released'; usage?: ReportedUsage; workerIdentity?: string }
  /**
   * The attempt never started: its shared ledger refused it for good (`reason`), or it was
   * stopped while it waited for a ledger slot or was cancelled before a worker started it (`reason` null).
   */
  | { kind: 'not-started'; reason: BudgetReason | null; message: string; workerIdentity?: string };

/** One attempt the workflow must start now. */
export interface Claim {
  key: string;
  title: string;
  attempt: number;
  fencingToken: number;
  leaseId: string;
  holder: string;
  activityId: string;
  ttlMs: number;
  /** How often the attempt heartbeats (the lease's pace; it sends none before the first of these). */
  heartbeatEveryMs: number;
  executor: ExecutorSpec;
  dependencyOutputs: Record<string, unknown>;
  /**
   * The task's estimate (0 where it gives none): what a shared ledger held for the attempt in runs recorded before
   * it held the attempt's `grant` (src/ledger/run-ledger.ts).
   */
  estimate: Reservation;
  /**
   * What the attempt may spend before it asks for more (`extendReservation`): its reservation, per
   * dimension a limit applies to (the run's, or a shared ledger's); null where nothing limits it. A shared ledger's
   * slot holds it (0 where null).
   */
  grant: Grant;
  /** Mailbox messages waiting for the task when the attempt starts (absent when none). */
  inbox?: MailMessage[];
  /** The task may add tasks (`allowSpawn`); absent when it may not. */
  allowSpawn?: true;
  /** The JSON Schema the task's output must match (`outputSchema`); absent when none. */
  outputSchema?: Record<string, unknown>;
  /** The task's `stallAfterMs` (or the plan's); absent: no stall watch. */
  stallAfterMs?: number;
  /** The task's scopes (or the plan's `defaultScope`), held in the run and on its shared ledger; absent: none. */
  scope?: string[];
}

/** Where an agent attempt is: what the Web UI's details show. Not in the snapshot: the next step refreshes it. */
export interface AgentProgress {
  fencingToken: number;
  turn: number;
  lastTool: string | null;
}
