import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { optionalTsToMs, type History } from '../sdk/proto';
import { decodeHistory } from '../codec';
import { TeamrunError } from '../errors';
import { adjudicationsQuery, statusQuery, tasksQuery } from '../workflows/messages';
import { TeamName } from '../workflows/search-attributes';
import { buildReport, type ExecutionFacts, type FinalState } from './build';
import { readHistories } from './history';
import type { RunReport } from './model';
import { loadAgentRecords, type PriceOf } from './agent-record';

export class ReportError extends TeamrunError {
  constructor(
    readonly code: 'not_found',
    message: string,
  ) {
    super(message);
  }
}

/** Bound on how far back a continue-as-new chain is followed. */
const MAX_RUNS = 1_000;
/** Queries of an open run need its worker; a missing worker must not hang the report. */
const QUERY_DEADLINE_MS = 10_000;

/** Reads a team run's whole history (every run of its continue-as-new chain) and final state into a report. */
export async function loadRunReport(
  client: Client,
  workflowId: string,
  now = Date.now(),
  options: { webUi?: string | null; price?: PriceOf } = {},
): Promise<RunReport> {
  const { description, histories, runIds } = await readRun(client, workflowId);
  const facts = readHistories(histories, workflowId);
  const execution: ExecutionFacts = {
    workflowId,
    runIds,
    team: description.typedSearchAttributes.get(TeamName) ?? null,
    taskQueue: description.taskQueue,
    webUi: options.webUi ? { base: options.webUi.replace(/\/+$/, ''), namespace: client.options.namespace } : null,
    workflowStatus: description.status.name,
    pending: (description.raw.pendingActivities ?? []).map((p) => ({
      activityId: p.activityId ?? '',
      startedAt: optionalTsToMs(p.lastStartedTime) ?? null,
      worker: p.lastWorkerIdentity || null,
    })),
  };
  let final: FinalState | null = null;
  const closedWith = facts.close?.kind === 'completed' || facts.close?.kind === 'cancelled' ? facts.close.result : null;
  if (closedWith) {
    const result = closedWith;
    final = {
      state: result.status,
      stats: result.stats,
      tasks: result.tasks,
      adjudications: result.adjudications,
      budget: result.budget,
    };
  } else if (description.status.name === 'RUNNING') {
    final = await liveState(client, workflowId);
  }
  const report = buildReport(facts, execution, final, now);
  // The agents' own words are in their journals, not in the run's history.
  const agentKeys = [...new Set(report.steps.map((s) => s.key))];
  const { records, notes } = await loadAgentRecords(client, workflowId, agentKeys, options.price);
  return { ...report, agents: records, notes: [...report.notes, ...notes] };
}

/**
 * A run's attempts from its history alone (no query, no worker needed): what `teamrun logs`
 * reads. The report's rules classify each attempt; task states are left out.
 */
export async function loadRunAttempts(client: Client, workflowId: string): Promise<RunReport> {
  const { description, histories, runIds } = await readRun(client, workflowId);
  const facts = readHistories(histories, workflowId);
  const pending = (description.raw.pendingActivities ?? []).map((p) => ({
    activityId: p.activityId ?? '',
    startedAt: optionalTsToMs(p.lastStartedTime) ?? null,
    worker: p.lastWorkerIdentity || null,
  }));
  const execution: ExecutionFacts = {
    workflowId,
    runIds,
    team: null,
    taskQueue: description.taskQueue,
    workflowStatus: description.status.name,
    pending,
  };
  return buildReport(facts, execution, null, Date.now());
}

/** The histories of the chain that ends in `runId`, oldest first, following `continuedExecutionRunId` back. */
/**
 * The run's description and the histories of its whole continue-as-new chain; `not_found` when there is no such run.
 */
export async function readRun(client: Client, workflowId: string) {
  const handle = client.workflow.getHandle(workflowId);
  let description;
  try {
    description = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      throw new ReportError('not_found', `no run with id "${workflowId}" in namespace ${client.options.namespace}`);
    throw err;
  }
  const { histories, runIds } = await chain(client, workflowId, description.runId, await handle.fetchHistory());
  return { description, histories, runIds };
}

async function chain(
  client: Client,
  workflowId: string,
  runId: string,
  latest: History,
): Promise<{ histories: History[]; runIds: string[] }> {
  // Histories come as stored: with a payload codec, encrypted until the client's codecs decode them.
  const codecs = client.options.loadedDataConverter.payloadCodecs;
  const histories = [await decodeHistory(latest, codecs)];
  const runIds = [runId];
  for (let i = 0; i < MAX_RUNS; i++) {
    const started = histories[0].events?.[0]?.workflowExecutionStartedEventAttributes;
    const previous = started?.continuedExecutionRunId;
    if (!previous) break;
    histories.unshift(
      await decodeHistory(await client.workflow.getHandle(workflowId, previous).fetchHistory(), codecs),
    );
    runIds.unshift(previous);
  }
  return { histories, runIds };
}

async function liveState(client: Client, workflowId: string): Promise<FinalState | null> {
  const handle = client.workflow.getHandle(workflowId);
  try {
    return await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, async () => {
      const status = await handle.query(statusQuery);
      const [tasks, adjudications] = await Promise.all([
        handle.query(tasksQuery, { limit: status.stats.total }),
        handle.query(adjudicationsQuery),
      ]);
      return { state: status.state, stats: status.stats, tasks, adjudications, budget: status.budget };
    });
  } catch {
    return null;
  }
}
