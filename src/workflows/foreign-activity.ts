import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import {
  foreignActivityInput,
  foreignActivityOptions,
  foreignResultOutcome,
  type ForeignActivityInput,
} from '../team/foreign-activity';
import type { AttemptOutcome, Claim } from '../team/types';

/**
 * Schedules an `activity` task's attempt: the activity type the plan names, on its own task
 * queue (never teamrun's worker), with the same id, retry and cancellation as `runTask`.
 * Resolves to the outcome its result means; rejects as `runTask` does, for `outcomeOf`.
 */
export function runForeignActivity(claim: Claim, workflowId: string, summary: string): Promise<AttemptOutcome> {
  const options = foreignActivityOptions(claim);
  const activities = proxyActivities<Record<string, (input: ForeignActivityInput) => Promise<unknown>>>({
    activityId: claim.activityId,
    taskQueue: options.taskQueue,
    ...(options.heartbeatTimeoutMs !== undefined ? { heartbeatTimeout: options.heartbeatTimeoutMs } : {}),
    startToCloseTimeout: options.startToCloseTimeoutMs,
    retry: { maximumAttempts: 1 },
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    summary,
  });
  return activities[options.activityType](foreignActivityInput(workflowId, claim)).then(foreignResultOutcome);
}
