import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { teamRunHandle, teamRunResult, type TeamRunHandle } from '../client';
import {
  failingWorkflowTask,
  failingWorkflowTaskText,
  pendingAttempts,
  type PendingAttempt,
} from '../client/run-health';
import { connectionAddress } from '../client/setup-checks';
import type { AdjudicationRecord, RunResult, StatusView as RunStatusView, TasksQuery, TaskView } from '../contract';
import { adjudicationsQuery, statusQuery, tasksQuery } from '../workflows/messages';
import { TeamName } from '../workflows/search-attributes';
import { summarizeOutcomes } from '../team/outcome';
import { CliError } from './context';

/** Task views an open run's `status` reads for its outcome summary (one page of the `tasks` query). */
const OUTCOME_TASKS = 2_000;

/**
 * What `status` shows of a run, the same whether the run is open (read from its queries) or
 * closed (read from its result, so no worker is needed to look at a finished run).
 */
export interface RunOverview {
  workflowId: string;
  open: boolean;
  name: string | null;
  /** A run state (`running`, `succeeded`, ...), or `workflow <status>` when the workflow itself did not complete. */
  state: string;
  /** Why the workflow itself failed (an invalid plan, a termination), null otherwise. */
  failure: string | null;
  // oxlint-disable-next-line no-duplicate-type-constituents -- one type today; both named so either may change
  stats: RunStatusView['stats'] | RunResult['stats'] | null;
  budget: RunStatusView['budget'] | null;
  executions: number | null;
  maxConcurrent: number | null;
  pendingAdjudications: AdjudicationRecord[];
  /** An open run's attempts as Temporal holds them: `scheduled` ones no worker has started yet. */
  attempts: PendingAttempt[];
  /** When Temporal's cancellation of the run was requested (an open run closes once its attempts settle). */
  cancelRequestedAt: number | null;
  /** Ready tasks of an open run waiting for budget, each with why (absent for a closed run). */
  waitingForBudget?: Array<{ key: string; waiting: string }>;
  /** What the tasks' outputs declare (mock, real, none; ran no test), when any declares something. */
  outcomes?: NonNullable<ReturnType<typeof summarizeOutcomes>>;
}

/**
 * A query answers with the workflow's clock as of its last task, which stands still while
 * nothing happens in the run; the wall time used is the one figure that moves on regardless.
 * It moves on to when the query was sent, not when its answer came: on a busy worker the answer
 * can come after the run ended, and the run's own figure (its clock when it ended) would then be
 * smaller than the one shown while it ran.
 */
function withWallNow(status: RunStatusView, askedAt: number): RunStatusView['budget'] {
  const wallMs = Math.max(status.budget.used.wallMs, askedAt - status.startedAt);
  return { ...status.budget, used: { ...status.budget.used, wallMs } };
}

/** Queries need a worker to answer; this bounds how long a command waits for one. */
const QUERY_DEADLINE_MS = 15_000;

/** How a workflow that returned no result ended, by the failure Temporal reports. */
const CLOSED_HOW: Record<string, string> = {
  TerminatedFailure: 'terminated',
  CancelledFailure: 'cancelled',
  TimeoutFailure: 'timed out',
};

type Closed = { ok: true; result: RunResult } | { ok: false; state: string; failure: string };

export class RunReader {
  readonly handle: TeamRunHandle;
  private closed: Promise<Closed> | undefined;

  constructor(
    private readonly client: Client,
    readonly workflowId: string,
  ) {
    this.handle = teamRunHandle(client, workflowId);
  }

  async overview(): Promise<RunOverview> {
    const description = await this.describe();
    // Its pending attempts are as Temporal described them now, not when the queries below answer.
    const describedAt = Date.now();
    const name = description.typedSearchAttributes.get(TeamName) ?? null;
    if (description.status.name === 'RUNNING') {
      await this.throwIfStuck(description);
      const askedAt = Date.now();
      const [status, adjudications, tasks] = await this.query(description.taskQueue, () =>
        Promise.all([
          this.handle.query(statusQuery),
          this.handle.query(adjudicationsQuery),
          this.handle.query(tasksQuery, { limit: OUTCOME_TASKS }),
        ]),
      );
      const outcomes = summarizeOutcomes(tasks);
      return {
        workflowId: this.workflowId,
        open: true,
        name: status.name,
        state: status.state,
        failure: null,
        stats: status.stats,
        budget: withWallNow(status, askedAt),
        executions: status.executions,
        maxConcurrent: status.maxConcurrent,
        pendingAdjudications: adjudications.filter((a) => a.decision === null),
        attempts: await pendingAttempts(this.client, description, describedAt).catch(() => []),
        cancelRequestedAt: status.cancelRequestedAt ?? null,
        ...(status.waitingForBudget ? { waitingForBudget: status.waitingForBudget } : {}),
        ...(outcomes ? { outcomes } : {}),
      };
    }
    const closed = await this.closedOutcome();
    if (!closed.ok) {
      return {
        workflowId: this.workflowId,
        open: false,
        name,
        state: closed.state,
        failure: closed.failure,
        stats: null,
        budget: null,
        executions: null,
        maxConcurrent: null,
        pendingAdjudications: [],
        attempts: [],
        cancelRequestedAt: null,
      };
    }
    const { result } = closed;
    const closedOutcomes = summarizeOutcomes(result.tasks);
    return {
      workflowId: this.workflowId,
      open: false,
      name,
      state: result.cancellation ? `${result.status} (workflow canceled)` : result.status,
      failure: null,
      stats: result.stats,
      budget: result.budget,
      executions: result.executions,
      maxConcurrent: result.maxConcurrent,
      pendingAdjudications: result.adjudications.filter((a) => a.decision === null),
      attempts: [],
      cancelRequestedAt: result.cancellation?.requestedAt ?? null,
      ...(closedOutcomes ? { outcomes: closedOutcomes } : {}),
    };
  }

  async tasks(query: TasksQuery): Promise<TaskView[]> {
    const description = await this.describe();
    if (description.status.name === 'RUNNING') {
      return this.query(description.taskQueue, () => this.handle.query(tasksQuery, query));
    }
    const closed = await this.closedOutcome();
    if (!closed.ok)
      throw new CliError(`run ${this.workflowId} has no tasks to show: ${closed.state}: ${closed.failure}`);
    // A big run's result leaves some task views out (`omittedTasks`); its `tasks` query still pages through them all.
    if (closed.result.omittedTasks > 0)
      return this.query(description.taskQueue, () => this.handle.query(tasksQuery, query));
    const offset = Math.max(0, query.offset ?? 0);
    const limit = Math.max(0, query.limit ?? 1_000);
    return closed.result.tasks.filter((t) => !query.status || t.status === query.status).slice(offset, offset + limit);
  }

  private async describe() {
    try {
      return await this.handle.describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) {
        throw new CliError(`no run with id "${this.workflowId}" in namespace ${this.client.options.namespace}`);
      }
      throw err;
    }
  }

  private closedOutcome(): Promise<Closed> {
    this.closed ??= teamRunResult(this.handle).then(
      (result): Closed => ({ ok: true, result }),
      (err: unknown): Closed => {
        if (!(err instanceof WorkflowFailedError)) throw err;
        const how = CLOSED_HOW[err.cause?.name ?? ''] ?? 'failed';
        return { ok: false, state: `workflow ${how}`, failure: err.cause?.message ?? err.message };
      },
    );
    return this.closed;
  }

  /**
   * A run whose workflow task keeps failing answers no query: say why (missing search attributes
   * above all) instead of suggesting a worker that is there.
   */
  private async throwIfStuck(description: Awaited<ReturnType<TeamRunHandle['describe']>>): Promise<void> {
    const failing = await failingWorkflowTask(this.client, description, connectionAddress(this.client.connection));
    if (failing) {
      throw new CliError(failingWorkflowTaskText(this.workflowId, this.client.options.namespace, failing));
    }
  }

  private async query<T>(taskQueue: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await this.client.withDeadline(Date.now() + QUERY_DEADLINE_MS, fn);
    } catch (err) {
      // The first attempt of a failing workflow task may have failed since the describe.
      const now = await this.describe().catch(() => null);
      if (now?.status.name === 'RUNNING') await this.throwIfStuck(now);
      throw new CliError(
        `run ${this.workflowId} is open but did not answer a query (${(err as Error).message}). ` +
          `Is a worker running on task queue "${taskQueue}"? Start one with \`teamrun worker\`.`,
      );
    }
  }
}
