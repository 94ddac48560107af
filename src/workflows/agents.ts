/**
 * The run's side of its agent tasks: the worker's `agentSteps` signal (steps to record as
 * events) and the `steerTask` rule, which hands checked guidance to the task's journal through an
 * activity and answers which model call it joins. The transcript never enters this workflow.
 */
import { ActivityFailure, ApplicationFailure, defineSignal, proxyActivities } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/agent-activities';
import { AGENT_STEPS_SIGNAL } from '../activities/interface';
import type { SteerTaskRequest, SteerTaskVerdict } from '../contract';
import type { AgentSteps } from '../plan/requests/agent';
import type { TeamRun } from '../team/run';

/** Sent by an agent attempt's worker, batched (src/activities/step-reporter.ts). */
export const agentStepsSignal = defineSignal<[AgentSteps]>(AGENT_STEPS_SIGNAL);

const { steerAgent } = proxyActivities<AgentActivities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['stale_attempt', 'value_too_large', 'invalid_request'] },
  summary: 'steer an agent',
});

/** The `steerTask` rule: the run's checks in the validator, then the journal's answer. */
export function steerRule(run: TeamRun, now: () => number) {
  return {
    validate: (request: SteerTaskRequest) => void run.validateSteer(request),
    apply: async (payload: SteerTaskRequest): Promise<SteerTaskVerdict> => {
      const request = run.validateSteer(payload);
      const { key, text, fencingToken } = request;
      let turn: number;
      try {
        ({ turn } = await steerAgent({
          workflowId: run.workflowId,
          key,
          text,
          actor: request.actor ?? null,
          fencingToken,
        }));
      } catch (err) {
        // The journal's refusal (a newer attempt took over meanwhile) reaches the caller with its code.
        const cause = err instanceof ActivityFailure ? err.cause : undefined;
        if (cause instanceof ApplicationFailure && cause.type)
          throw ApplicationFailure.nonRetryable(cause.message, cause.type);
        throw err;
      }
      run.steered(request, fencingToken, turn, now());
      return { ok: true, turn };
    },
  };
}
