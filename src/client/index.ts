import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import type { TeamrunConfig } from '../config/config';
import { connectionOptions } from '../config/connection';
import { dataConverterFor } from '../codec';
import type { TeamPlanInput } from '../plan/schema';
import type { teamRun } from '../workflows/team-run';
import { WORKFLOW_TYPE } from '../workflows/messages';
import { TeamName } from '../workflows/search-attributes';

export * as messages from '../workflows/messages';

export type TeamRunHandle = WorkflowHandle<typeof teamRun>;

/** A client for the config's cluster and namespace, with the config's payload codec. */
export async function connectClient(config: TeamrunConfig): Promise<Client> {
  const dataConverter = dataConverterFor(config);
  const connection = await Connection.connect(connectionOptions(config));
  return new Client({ connection, namespace: config.connection.namespace, dataConverter });
}

/** Starts a team run; the workflow id defaults to `<plan name>-<timestamp>`. */
export async function startTeamRun(
  client: Client,
  plan: TeamPlanInput,
  options: { taskQueue: string; workflowId?: string },
): Promise<TeamRunHandle> {
  const workflowId = options.workflowId ?? `${plan.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  return client.workflow.start<typeof teamRun>(WORKFLOW_TYPE, {
    taskQueue: options.taskQueue,
    workflowId,
    args: [plan],
    typedSearchAttributes: [{ key: TeamName, value: plan.name }],
    staticSummary: `team run ${plan.name}: ${plan.tasks.length} tasks, ${plan.teammates ?? 2} teammates`,
  });
}

export function teamRunHandle(client: Client, workflowId: string): TeamRunHandle {
  return client.workflow.getHandle<typeof teamRun>(workflowId);
}

export { cancelledRunResult, teamRunResult } from './result';
