/**
 * The activity a team run calls to steer one of its agents: the text goes to the task's journal
 * (src/agent), which queues it for the agent's next model call and answers which turn that is.
 * The run checked the request first (src/team/agents.ts); the journal refuses a stale token, and
 * takes the text only once this worker confirms it sent it (its gateway's proof).
 */
import { createHash } from 'node:crypto';
import { Context, ApplicationFailure } from '@temporalio/activity';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { JournalActivities } from '../agent/lifetime';
import { steerUpdate } from '../agent/messages';
import { JOURNAL_WORKFLOW_TYPE, journalId, type JournalSnapshot } from '../agent/types';
import { retryUpdate } from '../sdk/update-retry';
import type { AttemptGateway } from './gateway/gateway';

export interface SteerAgentInput {
  workflowId: string;
  key: string;
  text: string;
  actor: string | null;
  fencingToken: number;
}

export interface AgentActivities extends JournalActivities {
  steerAgent(input: SteerAgentInput): Promise<{ turn: number }>;
}

export function createAgentActivities(deps: { client: Client; gateway?: AttemptGateway }): AgentActivities {
  return {
    async steerAgent(input) {
      const { client } = deps;
      const workflowId = journalId(input.workflowId, input.key);
      // A steer may come before the attempt opened its journal: it then waits there for the first call.
      const start: JournalSnapshot = {
        runWorkflowId: input.workflowId,
        key: input.key,
        fencingToken: input.fencingToken,
        entries: [],
        turnOpen: 0,
        pending: [],
      };
      await client.workflow.start(JOURNAL_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: Context.current().info.taskQueue,
        args: [start],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      const digest = createHash('sha256').update(input.text, 'utf8').digest('hex');
      const request = {
        text: input.text,
        actor: input.actor,
        fencingToken: input.fencingToken,
        // Without a gateway there is nothing to confirm: the journal refuses the steer `unproven`.
        ...(deps.gateway ? { attempt: deps.gateway.proveSteer(input, digest) } : {}),
      };
      try {
        return await retryUpdate((updateId) =>
          client.workflow.getHandle(workflowId).executeUpdate(steerUpdate, { args: [request], updateId }),
        );
      } catch (err) {
        if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure)
          throw ApplicationFailure.nonRetryable(err.cause.message, err.cause.type ?? 'rejected');
        throw err;
      }
    },
    /** A journal's check of its run (src/agent/lifetime.ts): its latest execution, so a handover reads as open. */
    async journalRunOpen(runWorkflowId) {
      try {
        return (await deps.client.workflow.getHandle(runWorkflowId).describe()).status.name === 'RUNNING';
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
        throw err;
      }
    },
  };
}
