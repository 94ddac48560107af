/**
 * What a run returns when it closes: the result, and what a cancellation adds to it. Apart from
 * run.ts because it holds the adjudications, whose records hold task views (run.ts's).
 */
import type { AdjudicationRecord } from './adjudication';
import type { LedgerTotals } from './ledger';
import type { MailboxStatus, MemberRecord } from './mailbox';
import type { BudgetReason, BudgetView } from './budget';
import type { RunStats, RunStatus, TaskView } from './run';

/** What a cancelled run's result says about the cancellation (absent from a run that was not cancelled). */
export interface CancellationView {
  requestedAt: number;
  /** Adjudications still pending when the run closed: nobody can decide them any more. */
  abandonedAdjudications: number;
  message: string;
}

/** What `teamRun` returns (and, for a run closed as Canceled, the cancellation's details). */
export interface RunResult {
  status: RunStatus;
  stats: RunStats;
  executions: number;
  maxConcurrent: number;
  budget: BudgetView;
  budgetReason: BudgetReason | null;
  /** Every task's view while they fit in Temporal's result bound; see `omittedTasks`. */
  tasks: TaskView[];
  /** Views left out of `tasks` to keep the result small (0 on most runs); the `tasks` query pages them all. */
  omittedTasks: number;
  adjudications: AdjudicationRecord[];
  /** The decision chain's head when the run closed (absent: no decision was chained). */
  decisionChain?: { seq: number; head: string };
  cancellation?: CancellationView;
  /** One row per teammate slot at the end, as the `members` query (absent from runs recorded before it). */
  members?: MemberRecord[];
  /** The mailbox at the end (absent from runs recorded before it). */
  mailbox?: MailboxStatus;
  /** The shared ledger's status when the run unregistered (with `budget.ledger`; absent if it could not be read). */
  ledger?: RunLedgerSummary;
}

/** What a run's result keeps of its shared ledger's status: the totals, not its slots, runs or events. */
export type RunLedgerSummary = LedgerTotals;
