/**
 * What a run shows of itself: task states and views, the `status` and `activeClaims` answers and
 * the result the workflow returns. Shapes only; src/team builds them and must satisfy these.
 * Timestamps are epoch milliseconds (query answers also carry ISO twins, see `WithIsoTimes`).
 */
import type { BudgetView } from './budget';

export type TaskStatus = 'blocked' | 'ready' | 'leased' | 'succeeded' | 'failed' | 'adjudication' | 'skipped';

/** How a run ended. */
export type RunStatus = 'succeeded' | 'failed' | 'aborted' | 'budget_stopped' | 'unresolved';
/** Where a run is: still working, waiting on people only, or ended. */
export type RunState = 'running' | 'awaiting_adjudication' | RunStatus;

/** What a task's attempts used, summed. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheTokens: number;
  costUsd: number;
}

/** One task, as the `tasks` query and the run result show it. */
export interface TaskView {
  key: string;
  title: string;
  status: TaskStatus;
  attempts: number;
  fencingToken: number;
  dependsOn: string[];
  holder: string | null;
  startedAt: number | null;
  settledAt: number | null;
  lastError: string | null;
  skipReason: string | null;
  /**
   * Present while a ready task waits for budget: `waiting for budget: needs X, Y free, Z reserved by <keys>` (what
   * its reservation needs, what the limit leaves free, and what the attempts running now hold).
   */
  waiting?: string;
  usage: UsageTotals;
  output?: unknown;
  /** What the output says of itself (src/team/outcome.ts), when it says anything. */
  outcome?: TaskOutcome;
  /** The task that added this one, or null. */
  parent: string | null;
  /** Parent chain length from a plan task (0 for plan tasks). */
  depth: number;
  /**
   * A `team` task's child run (docs/teams.md): the workflow id of its current or last attempt's child
   * (`<run id>/<key>#<fencing token>`); absent before its first attempt and on every other kind.
   */
  child?: string;
}

/** What a task's output declares of itself: mock or real, what it produced, what it covers, whether tests ran. */
export interface TaskOutcome {
  integration?: 'mock' | 'real' | 'none';
  /** Paths or URLs it produced (at most 32, each at most 512 chars). */
  artifacts?: string[];
  /** Acceptance-criteria ids it covers (at most 64). */
  covers?: string[];
  /** Whether it ran tests (agent-cli: from its CLI's stream; shell: as it declares). */
  testsRun?: boolean;
}

/** The `tasks` query's argument: one page, optionally of one status. */
export interface TasksQuery {
  status?: TaskStatus;
  offset?: number;
  limit?: number;
}

/** Tasks by state. `running` counts `leased`, `pending` counts `ready` and `blocked`. */
export interface RunStats {
  total: number;
  succeeded: number;
  failed: number;
  skipped: number;
  adjudication: number;
  running: number;
  pending: number;
  /** Ready tasks a teammate could take now (not waiting for budget); absent from runs recorded before it. */
  claimable?: number;
  /** Attempts whose lease expired (their heartbeats stopped) in this run so far; absent from older runs. */
  expiredLeases?: number;
}

/** The `status` query's answer. */
export interface StatusView {
  name: string;
  state: RunState;
  stats: RunStats;
  budget: BudgetView;
  teammates: { requested: number; active: number };
  startedAt: number;
  pendingAdjudications: number;
  /** Present once Temporal's cancellation was requested. */
  cancelRequestedAt?: number;
  /** Attempts started so far (all tasks), and the most that ran at once. */
  executions: number;
  maxConcurrent: number;
  /** Ready tasks waiting for budget (the first 5), each with why; absent when none waits. */
  waitingForBudget?: Array<{ key: string; waiting: string }>;
  /** The decision chain's head: how many decisions were chained and the last one's digest (absent: none yet). */
  decisionChain?: { seq: number; head: string };
  /** This run's place in a tree of teams: `root/key/key` (its workflow id without the tokens); absent at a root. */
  path?: string;
  /** A run with `team` tasks: how many, and the first CHILDREN_LISTED of them with their child runs. */
  children?: ChildrenView;
}

/** A run's `team` tasks and their child runs, bounded (`listed` holds at most 50; the rest only counted). */
export interface ChildrenView {
  total: number;
  listed: Array<{ key: string; status: TaskStatus; fencingToken: number; child: string | null }>;
}

/** A human takeover of an attempt, as recorded when it was asked for. */
export interface Interruption {
  requestId: string | null;
  actor: string | null;
  reason: string | null;
  evidenceDigest: string | null;
  requestedAt: number;
}

/** One attempt holding a lease now (the `activeClaims` query). */
export interface ActiveClaim {
  key: string;
  holder: string;
  leaseId: string;
  fencingToken: number;
  attempt: number;
  activityId: string;
  startedAt: number;
  interrupted: boolean;
  interruption: Interruption | null;
}
