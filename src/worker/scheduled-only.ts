import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityInterceptorsFactory, WorkerOptions } from '@temporalio/worker';
import type { FailureType } from '../contract';

export const NOT_SCHEDULED: FailureType = 'TeamActivityNotScheduled';

/**
 * Every activity of a teamrun worker runs only when a workflow scheduled it. Temporal lets a client start an activity
 * on its own, on any task queue (standalone activities: on by default on the dev server of Temporal CLI 1.9): a
 * `runTask` so started would run its executor outside any run's lease, budget and plan checks, and a ledger call or
 * a steer would carry this worker's proof for a run that never asked. Refused before the activity's function runs,
 * for good, naming the activity.
 */
export const scheduledOnly: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    execute(input, next) {
      if (ctx.info.workflowExecution) return next(input);
      const { activityType, activityId, taskQueue } = ctx.info;
      throw ApplicationFailure.create({
        type: NOT_SCHEDULED,
        message:
          `activity ${activityType} (id ${activityId}) on ${taskQueue} was started by a client, not scheduled by a ` +
          `workflow: a teamrun worker runs its activities only for the runs that schedule them`,
        nonRetryable: true,
      });
    },
  },
});

/** `interceptors` with `scheduledOnly` first among the activity interceptors. */
export function withScheduledOnly(interceptors: WorkerOptions['interceptors']): WorkerOptions['interceptors'] {
  return { ...interceptors, activity: [scheduledOnly, ...(interceptors?.activity ?? [])] };
}
