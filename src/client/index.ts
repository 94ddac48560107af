import { Client, Connection, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { loadConfig, type TeamrunConfig } from '../config/config';
import { connectionOptions, CONNECT_TIMEOUT_MS } from '../config/connection';
import { dataConverterFor } from '../codec';
import { telemetrySettings } from '../telemetry/config';
import type { TeamPlanInput } from '../plan/schema';
import type { teamRun } from '../workflows/team-run';
import { WORKFLOW_TYPE } from '../workflows/messages';
import { TeamName } from '../workflows/search-attributes';
import { withControls, type TeamRunControls } from './handle';
import { runSummary } from '../format';

export * as messages from '../workflows/messages';
export * from './handle';
/** The contract's types (src/contract): what every query, update and the run answer. */
export type * from '../contract';

/** The default task queue of CONTRACT.md, used when neither the options nor a config name one. */
export const DEFAULT_TASK_QUEUE = 'teamrun';

/**
 * A client for the config's cluster and namespace (by default the config `loadConfig()` finds:
 * teamrun.yaml, the temporal.toml profile, TEMPORAL_* variables). An unreachable server fails
 * after the connect timeout (2 s), not after the SDK's retries. With `codec:` set in the config,
 * the client encrypts and decrypts payloads with it; with tracing on (docs/observability.md), its
 * calls are spans.
 */
export async function connectClient(config: TeamrunConfig = loadConfig()): Promise<Client> {
  const dataConverter = dataConverterFor(config);
  const connection = await Connection.connect({ connectTimeout: CONNECT_TIMEOUT_MS, ...connectionOptions(config) });
  // With tracing on (OTEL_* or `telemetry:`), each call is a span and a run started joins the caller's trace.
  const tracing = telemetrySettings(config.telemetry, process.env, 'client');
  const interceptors = tracing
    ? (require('./tracing') as typeof import('./tracing')).tracedClientInterceptors({
        ...tracing,
        withoutTaskText: config.codec !== undefined,
      })
    : undefined;
  return new Client({ connection, namespace: config.connection.namespace, dataConverter, interceptors });
}

export interface StartTeamRunOptions {
  /** Task queue the workers poll (default `teamrun`). */
  taskQueue?: string;
  /** Workflow id (default `<plan name>-<timestamp>`); one that is running already is refused. */
  workflowId?: string;
}

/** Starts a team run and returns its handle: `result()`, `status()`, `interrupt()`, `abort()`, `adjudicate()`, ... */
export async function startTeamRun(
  client: Client,
  plan: TeamPlanInput,
  options: StartTeamRunOptions = {},
): Promise<WorkflowHandleWithFirstExecutionRunId<typeof teamRun> & TeamRunControls> {
  const workflowId = options.workflowId ?? `${plan.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const handle = await client.workflow.start<typeof teamRun>(WORKFLOW_TYPE, {
    taskQueue: options.taskQueue ?? DEFAULT_TASK_QUEUE,
    workflowId,
    args: [plan],
    typedSearchAttributes: [{ key: TeamName, value: plan.name }],
    staticSummary: runSummary(plan),
  });
  return withControls(handle);
}

export { cancelledRunResult, endedRunText, teamRunResult } from './result';
