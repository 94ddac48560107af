import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { RunState } from '../contract';
import { TeamrunError } from '../errors';
import { WORKFLOW_TYPE, statusQuery } from '../workflows/messages';
import {
  TeamName,
  TeamRunBudgetStopped,
  TeamRunPendingAdjudications,
  TeamRunStatus,
  statusKeyword,
} from '../workflows/search-attributes';
import { teamRunHandle } from './index';
import { teamRunResult } from './result';

/** One run as `teamrun runs` lists it. */
export interface RunSummary {
  workflowId: string;
  runId: string;
  team: string | null;
  /**
   * The team run's state (`TeamRunStatus`, e.g. `awaiting_adjudication`);
   * `canceled` etc. when the workflow itself says more.
   */
  state: string;
  /** Temporal's execution status: `RUNNING`, `COMPLETED`, `CANCELLED`, `TERMINATED`, ... */
  workflowStatus: string;
  pendingAdjudications: number | null;
  budgetStopped: boolean | null;
  startedAt: number;
  closedAt: number | null;
  /** Tasks settled of the total, from the `status` query (open) or the result (closed); null when unreadable. */
  progress: { done: number; total: number } | null;
  budgetUsed: { attempts: number; tokens: number; usd: number } | null;
}

export interface RunsFilter {
  team?: string;
  /**
   * Run states (`running`, `awaiting_adjudication`, `succeeded`, ...) or
   * workflow statuses (`canceled`, `terminated`, `timed_out`, `open`, `closed`).
   */
  statuses?: string[];
  /** Only runs started after this time (ms since epoch). */
  since?: number;
  /** At most this many runs, newest first. */
  limit?: number;
}

export class RunsFilterError extends TeamrunError {
  readonly code = 'invalid_filter';
}

const RUN_STATES: RunState[] = [
  'running',
  'awaiting_adjudication',
  'succeeded',
  'failed',
  'aborted',
  'budget_stopped',
  'unresolved',
];
const WORKFLOW_STATUSES: Record<string, string> = {
  open: 'ExecutionStatus="Running"',
  closed: 'ExecutionStatus!="Running"',
  completed: 'ExecutionStatus="Completed"',
  canceled: 'ExecutionStatus="Canceled"',
  cancelled: 'ExecutionStatus="Canceled"',
  terminated: 'ExecutionStatus="Terminated"',
  timed_out: 'ExecutionStatus="TimedOut"',
  workflow_failed: 'ExecutionStatus="Failed"',
};

/** The valid `--status` values, for help and errors. */
export const RUN_STATUS_FILTERS = [...RUN_STATES, ...Object.keys(WORKFLOW_STATUSES).filter((s) => s !== 'cancelled')];

/** The visibility query of a filter: team runs only, on the search attributes of CONTRACT.md. */
export function runsQuery(filter: RunsFilter): string {
  const parts = [`WorkflowType=${JSON.stringify(WORKFLOW_TYPE)}`];
  if (filter.team !== undefined) {
    if (!/^[A-Za-z0-9._-]{1,100}$/.test(filter.team))
      throw new RunsFilterError(`--team "${filter.team}": a team name is 1..100 of [A-Za-z0-9._-]`);
    parts.push(`TeamName=${JSON.stringify(filter.team)}`);
  }
  if (filter.statuses?.length) {
    const terms = filter.statuses.map((raw) => {
      const status = raw.trim().toLowerCase().replace(/-/g, '_');
      if ((RUN_STATES as string[]).includes(status))
        return `TeamRunStatus=${JSON.stringify(statusKeyword(status as RunState))}`;
      const workflow = Object.prototype.hasOwnProperty.call(WORKFLOW_STATUSES, status)
        ? WORKFLOW_STATUSES[status]
        : undefined;
      if (workflow) return workflow;
      throw new RunsFilterError(`--status "${raw}": not one of ${RUN_STATUS_FILTERS.join(', ')}`);
    });
    parts.push(`(${terms.join(' OR ')})`);
  }
  if (filter.since !== undefined) parts.push(`StartTime>${JSON.stringify(new Date(filter.since).toISOString())}`);
  return parts.join(' AND ');
}

/** `7d`, `12h`, `30m`, `45s` before `now`, or an ISO date. */
export function parseSince(value: string, now = Date.now()): number {
  const relative = /^(\d+)\s*([smhdw])$/.exec(value.trim());
  if (relative) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
      relative[2] as 's' | 'm' | 'h' | 'd' | 'w'
    ];
    return now - Number(relative[1]) * unit;
  }
  const at = Date.parse(value);
  if (Number.isNaN(at))
    throw new RunsFilterError(`--since "${value}": give a duration (7d, 12h, 30m) or a date (2026-11-30T12:00:00Z)`);
  return at;
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1_000;
const QUERY_DEADLINE_MS = 8_000;
const PARALLEL_READS = 8;

/** Recent team runs from visibility, newest first, each with its progress and budget used. */
export async function listTeamRuns(client: Client, filter: RunsFilter = {}): Promise<RunSummary[]> {
  const query = runsQuery(filter);
  const limit = Math.min(Math.max(1, filter.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const executions: WorkflowExecutionInfo[] = [];
  for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 100) })) {
    executions.push(execution);
    if (executions.length >= limit) break;
  }
  executions.sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
  const runs: RunSummary[] = new Array(executions.length);
  let next = 0;
  const readNext = async (): Promise<void> => {
    for (let i = next++; i < executions.length; i = next++) runs[i] = await summarize(client, executions[i]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, executions.length) }, readNext));
  return runs;
}

async function summarize(client: Client, execution: WorkflowExecutionInfo): Promise<RunSummary> {
  const attrs = execution.typedSearchAttributes;
  const keyword = attrs.get(TeamRunStatus) ?? null;
  const state = RUN_STATES.find((s) => statusKeyword(s) === keyword) ?? 'unknown';
  const workflowStatus = execution.status.name;
  const summary: RunSummary = {
    workflowId: execution.workflowId,
    runId: execution.runId,
    team: attrs.get(TeamName) ?? null,
    state:
      workflowStatus === 'RUNNING' || workflowStatus === 'COMPLETED'
        ? state
        : `${state} (${workflowStatus.toLowerCase()})`,
    workflowStatus,
    pendingAdjudications: attrs.get(TeamRunPendingAdjudications) ?? null,
    budgetStopped: attrs.get(TeamRunBudgetStopped) ?? null,
    startedAt: execution.startTime.getTime(),
    closedAt: execution.closeTime?.getTime() ?? null,
    progress: null,
    budgetUsed: null,
  };
  const handle = teamRunHandle(client, execution.workflowId);
  try {
    const view =
      workflowStatus === 'RUNNING'
        ? await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(statusQuery))
        : workflowStatus === 'COMPLETED' || workflowStatus === 'CANCELLED'
          ? await teamRunResult(handle)
          : null;
    if (view) {
      const { stats, budget } = view;
      summary.progress = { done: stats.succeeded + stats.failed + stats.skipped, total: stats.total };
      summary.budgetUsed = { attempts: budget.used.tasks, tokens: budget.used.tokens, usd: budget.used.usd };
    }
  } catch {
    // An open run with no worker, or a workflow that closed without a result: the list still shows it.
  }
  return summary;
}
