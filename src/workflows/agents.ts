/**
 * The run's side of its agent tasks: the worker's `agentSteps` signal (steps to record as
 * events, once proven as the attempt's) and the `steerTask` rule, which hands checked guidance to
 * the task's journal through an activity and answers which model call it joins. The transcript
 * never enters this workflow.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  defineSignal,
  patched,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { AgentActivities } from '../activities/agent-activities';
import { AGENT_STEPS_SIGNAL } from '../activities/interface';
import type { SteerTaskRequest, SteerTaskVerdict } from '../contract';
import type { AgentSteps } from '../plan/requests/agent';
import { anchorToConfirm } from '../team/agents';
import type { AttemptConfirmations } from '../team/governance';
import type { TeamRun } from '../team/run';
import type { Attempt } from '../team/types';
import { confirmAttemptRequest, controlQueue } from './stop-channel';

/** Sent by an agent attempt's worker, batched (src/activities/step-reporter.ts). */
export const agentStepsSignal = defineSignal<[AgentSteps]>(AGENT_STEPS_SIGNAL);

/** Since this patch the run records only proven steps (a run recorded before it replays as it ran). */
export const AGENT_STEPS_PROOF_PATCH = 'teamrun-agent-steps-proof';

/** Signals of one attempt that wait while its anchor is confirmed; past it the newest are dropped. */
const MAX_WAITING_SIGNALS = 64;
/**
 * Anchors of one attempt confirmed in vain on a queue that is not its worker's known one (each may
 * wait 10 s for a worker nobody runs, and the run waits for its handlers before it ends): past it the
 * attempt's anchors are not confirmed any more, and its steps are not recorded.
 */
const MAX_FAILED_ANCHORS = 4;

/**
 * The `agentSteps` handler. A signal is anyone's to send, and the fencing token it names is public
 * (`activeClaims`): the run records steps only as proven by the attempt's worker (src/agent/chain.ts).
 * The first signal of an attempt carries its chain's anchor, which the run confirms with that
 * worker (one activity per attempt that reports steps); each later one the chain's next link.
 * Signals of one attempt are taken in order: those arriving during the confirmation wait for it.
 * The handler's promise lasts as long: the run ends or continues as new only once they are taken.
 */
export function agentStepsHandler(run: TeamRun, now: () => number, confirmations: AttemptConfirmations) {
  const queues = new Map<Attempt, { tail: Promise<void>; waiting: number }>();
  const failed = new WeakMap<Attempt, number>();
  const take = async (payload: AgentSteps, attempt: Attempt): Promise<void> => {
    const proof = anchorToConfirm(attempt, payload);
    if (!proof) return void run.recordAgentSteps(payload, now(), 'link', attempt);
    // Once the attempt announced its worker's queue, a proof naming another worker is nobody's.
    if (attempt.stopQueue !== undefined && proof.attempt.queue !== attempt.stopQueue) return;
    const unanswered = failed.get(attempt) ?? 0;
    if (unanswered >= MAX_FAILED_ANCHORS) return;
    try {
      confirmations.check({ attempt: proof.attempt, request: payload }, 'agentSteps', attempt.stopQueue);
    } catch {
      return;
    }
    confirmations.begin(proof.attempt, attempt.stopQueue);
    let yes = false;
    try {
      const { key, fencingToken, anchor } = proof;
      const { workflowId } = workflowInfo();
      const request = { workflowId, key, fencingToken, message: 'agentSteps' as const, anchor };
      yes = await confirmAttemptRequest(proof.attempt, request);
    } finally {
      confirmations.end(proof.attempt, yes);
    }
    if (yes) run.recordAgentSteps(payload, now(), 'confirmed', attempt);
    // A no from the attempt's own worker costs nothing; one from elsewhere (or none) may have cost 20 s.
    else if (proof.attempt.queue !== attempt.stopQueue) failed.set(attempt, unanswered + 1);
  };
  return async (payload: AgentSteps): Promise<void> => {
    if (!patched(AGENT_STEPS_PROOF_PATCH)) return void run.recordAgentSteps(payload, now(), 'unproven');
    const attempt = run.agentStepsAttempt(payload);
    if (!attempt) return;
    let queue = queues.get(attempt);
    if (!queue) {
      // Nothing waits: a link is checked in this step; an anchor starts its confirmation, which later ones wait for.
      if (!anchorToConfirm(attempt, payload)) return void run.recordAgentSteps(payload, now(), 'link', attempt);
      queue = { tail: Promise.resolve(), waiting: 0 };
      queues.set(attempt, queue);
    } else if (queue.waiting >= MAX_WAITING_SIGNALS) return;
    queue.waiting += 1;
    const tail = queue.tail.then(() => take(payload, attempt));
    queue.tail = tail;
    await tail;
    if (queue.tail === tail) queues.delete(attempt);
  };
}

const steering = () =>
  proxyActivities<AgentActivities>({
    ...controlQueue(),
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
        ({ turn } = await steering().steerAgent({
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
