import type { TaskOutcome } from '../contract';
import type { AgentRecord } from './agent-record';
import type { AttemptLogs } from '../activities/interface';
import type { BudgetLimits, Usage } from '../plan/schema';

/** How one attempt (one `runTask` activity) ended, as its history and the run's rules tell it. */
export type AttemptOutcome =
  | 'succeeded'
  | 'failed'
  /** The worker stopped heartbeating past the lease TTL; the server timed the attempt out. */
  | 'lease-expired'
  /** An operator's `interruptTask` stopped it; the task went to adjudication. */
  | 'interrupted'
  /** Stopped by an abort or the wall-clock budget. */
  | 'cancelled'
  /** Its worker shut down gracefully and handed it back to be re-leased. */
  | 'released'
  | 'timed-out'
  | 'running'
  | 'scheduled';

export interface AttemptRecord {
  key: string;
  activityId: string;
  attempt: number;
  fencingToken: number;
  leaseId: string;
  /** Teammate slot that held the lease. */
  holder: string;
  /** Worker process identity that ran it, when known. */
  worker: string | null;
  executor: string;
  /** The one-line summary the Web UI shows for the activity. */
  summary: string | null;
  scheduledAt: number;
  startedAt: number | null;
  endedAt: number | null;
  cancelRequestedAt: number | null;
  outcome: AttemptOutcome;
  /** Error message, timeout kind, or what stopped it. */
  detail: string | null;
  usage: Usage | null;
  /** The run (of the continue-as-new chain) that scheduled it, and its ActivityTaskScheduled event. */
  runId: string | null;
  scheduledEventId: number | null;
  /** The tail of what it printed, when its result or failure carried one. */
  logs: AttemptLogs | null;
  /** Links it printed (`::teamrun-link::`): where its full logs or artefacts are. */
  links: Array<{ url: string; label?: string }>;
}

export interface TaskReport {
  key: string;
  title: string;
  /** Final (or current) task status from the run's state, null when the state could not be read. */
  status: string | null;
  dependsOn: string[];
  attempts: AttemptRecord[];
  lastError: string | null;
  /** The task that added this one while the run ran (`addTasks`), or null. */
  parent: string | null;
  /** What its output declares of itself (mock or real, artifacts, covers, tests run), from the run's state. */
  outcome?: TaskOutcome;
}

/** Tasks added while the run ran: how many, and the tree of the ones a task added (parent -> children, run order). */
export interface SpawnedTasks {
  /** Tasks in the run that its starting plan did not have. */
  added: number;
  tree: Array<{ parent: string; children: string[] }>;
}

/** An operator's (or Temporal's) message to the run: a signal, an update, a cancel or terminate request. */
export interface ControlRecord {
  at: number;
  via: 'signal' | 'update' | 'workflow';
  name: string;
  actor: string | null;
  /** Client identity Temporal recorded for the request. */
  identity: string | null;
  key: string | null;
  fencingToken: number | null;
  /** What was asked, in words. */
  summary: string;
  /** What the run answered (updates only): `ok`, `ok (idempotent)`, `refused: <reason>`. */
  verdict: string | null;
  /** A `sendMessage`'s sender and recipient. */
  message?: { from: string; to: string };
}

/**
 * One step of an agent task (from the worker's `agentSteps` signals): a model call or a tool call.
 * `at` is when the run received the batch holding it (batches leave at most every second).
 */
export interface AgentStepRecord {
  at: number;
  key: string;
  fencingToken: number;
  kind: 'model' | 'tool';
  turn: number;
  summary: string;
  ok: boolean;
}

/** A lease that expired, and the attempt that re-leased the task (if any). */
export interface LeaseRecord {
  at: number;
  key: string;
  fencingToken: number;
  leaseId: string;
  worker: string | null;
  next: { fencingToken: number; at: number } | null;
}

export interface AdjudicationRow {
  key: string;
  code: string;
  reason: string | null;
  actor: string | null;
  fencingToken: number;
  requestedAt: number;
  decision: {
    decision: string;
    decisionId: string;
    actor: string | null;
    reason: string | null;
    decidedAt: number;
  } | null;
}

/** Budget used by the time `at`: attempts started, tokens and dollars charged by settled attempts. */
export interface BudgetPoint {
  at: number;
  attempts: number;
  tokens: number;
  usd: number;
}

export interface RunReport {
  workflowId: string;
  /** Where the run and its attempts open in the Temporal Web UI, when known. */
  webUi: { base: string; namespace: string } | null;
  /** Every run of the chain (continue-as-new), oldest first. */
  runIds: string[];
  team: string | null;
  taskQueue: string | null;
  /** The team run's state (`succeeded`, `awaiting_adjudication`, ...) or how the workflow itself ended. */
  state: string;
  workflowStatus: string;
  startedAt: number;
  closedAt: number | null;
  generatedAt: number;
  stats: { total: number; succeeded: number; failed: number; skipped: number; adjudication: number } | null;
  tasks: TaskReport[];
  spawned: SpawnedTasks;
  leases: LeaseRecord[];
  control: ControlRecord[];
  /** Agent tasks' model and tool steps, oldest first (at most REPORT_STEPS_MAX). */
  steps: AgentStepRecord[];
  /** Agent tasks' transcripts (what each turn said, its tool calls and their results), read from their journals. */
  agents: AgentRecord[];
  /** Null when neither the result nor a query could say (an open run with no worker). */
  adjudications: AdjudicationRow[] | null;
  budget: {
    limits: BudgetLimits;
    used: { attempts: number; tokens: number; usd: number };
    points: BudgetPoint[];
    stopped: boolean;
    reason: string | null;
  };
  /** Things the reader should know about gaps in the data. */
  notes: string[];
}
