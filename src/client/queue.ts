import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { AdjudicationRecord } from '../contract';
import { adjudicationsQuery } from '../workflows/messages';
import { TeamName, TeamRunPendingAdjudications } from '../workflows/search-attributes';
import { teamRunHandle } from './index';

/**
 * Open runs that wait on a human: the run has nothing left to do but adjudications, or some of
 * its tasks wait for a decision (an approval step) while others still run.
 */
export const AWAITING_ADJUDICATION =
  '(TeamRunStatus="AwaitingAdjudication" OR TeamRunPendingAdjudications > 0) AND ExecutionStatus="Running"';

/** One task waiting for a decision. */
export interface PendingTask {
  key: string;
  code: AdjudicationRecord['code'];
  reason: string | null;
  actor: string | null;
  fencingToken: number;
  requestedAt: number;
  ageMs: number;
}

/** One run of the queue, with its pending tasks (or why they could not be read). */
export interface QueuedRun {
  workflowId: string;
  runId: string;
  team: string | null;
  startedAt: string;
  /** `TeamRunPendingAdjudications` as visibility last saw it. */
  pendingCount: number | null;
  pending: PendingTask[];
  /** Set when the run did not answer the `adjudications` query (no worker on its queue). */
  error: string | null;
}

/** Queries need a worker; a run whose worker is gone must not hold up the whole queue. */
const QUERY_DEADLINE_MS = 10_000;
const PARALLEL_QUERIES = 8;

/**
 * Every open run awaiting adjudication (a visibility query on the search attributes), with each
 * pending task read from the run's `adjudications` query. Oldest request first.
 */
export async function adjudicationQueue(
  client: Client,
  options: { team?: string; now?: number } = {},
): Promise<QueuedRun[]> {
  const query = options.team
    ? `${AWAITING_ADJUDICATION} AND TeamName=${JSON.stringify(options.team)}`
    : AWAITING_ADJUDICATION;
  const executions: WorkflowExecutionInfo[] = [];
  for await (const execution of client.workflow.list({ query })) executions.push(execution);
  const runs: QueuedRun[] = new Array(executions.length);
  let next = 0;
  const readNext = async (): Promise<void> => {
    for (let i = next++; i < executions.length; i = next++)
      runs[i] = await queuedRun(client, executions[i], options.now);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_QUERIES, executions.length) }, readNext));
  const oldest = (run: QueuedRun) => Math.min(...run.pending.map((p) => p.requestedAt), Number.MAX_SAFE_INTEGER);
  return runs.sort((a, b) => oldest(a) - oldest(b) || a.workflowId.localeCompare(b.workflowId));
}

async function queuedRun(client: Client, execution: WorkflowExecutionInfo, now?: number): Promise<QueuedRun> {
  const base = {
    workflowId: execution.workflowId,
    runId: execution.runId,
    team: execution.typedSearchAttributes.get(TeamName) ?? null,
    startedAt: execution.startTime.toISOString(),
    pendingCount: execution.typedSearchAttributes.get(TeamRunPendingAdjudications) ?? null,
  };
  try {
    const handle = teamRunHandle(client, execution.workflowId);
    const records = await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(adjudicationsQuery));
    const at = now ?? Date.now();
    const pending = records
      .filter((r) => r.decision === null)
      .map((r) => ({
        key: r.key,
        code: r.code,
        reason: r.reason,
        actor: r.actor,
        fencingToken: r.fencingToken,
        requestedAt: r.requestedAt,
        ageMs: Math.max(0, at - r.requestedAt),
      }));
    return { ...base, pending, error: null };
  } catch (err) {
    return { ...base, pending: [], error: `adjudications query failed: ${(err as Error).message}` };
  }
}
