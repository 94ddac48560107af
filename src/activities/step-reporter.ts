/**
 * `ctx.emit` for an attempt: its steps (`agent:turn`, `agent:tool`) reach the run's event log as
 * the worker's `agentSteps` signal, batched (one signal per flush, at most STEPS_LIMITS.perSignal
 * steps) and bounded (past `held` waiting steps the oldest are dropped). A step is reporting, not
 * state: a signal that fails is dropped, and the run drops steps of an attempt it no longer awaits.
 * Each signal carries the gateway's proof (`stepsProof`): the run records only steps whose proof
 * follows the hash chain it confirmed with this worker at the attempt's first signal.
 */
import type { Client } from '@temporalio/client';
import { STEPS_LIMITS } from '../plan/requests/agent';
import type { StepsProof } from './gateway/gateway';
import type { AttemptStepEvent } from './executors/types';
import { AGENT_STEPS_SIGNAL, type AttemptIdentity } from './interface';

export const STEP_REPORTING = {
  /**
   * How long a step waits for others to share its signal: each signal is a workflow task of the run (four
   * events), so a fast agent's steps go in few signals (was 250 ms: about one signal a step under load).
   */
  flushMs: 1_000,
  /** Steps held while a signal is on its way. */
  held: 200,
  /** How long an ending attempt waits for its last steps to reach the run. */
  drainMs: 2_000,
} as const;

export interface StepReporter {
  emit: (step: AttemptStepEvent) => void;
  /** Sends what waits, before the attempt reports its end (the run records the last step before it settles). */
  drain: () => Promise<void>;
}

export function stepReporter(client: Client, attempt: AttemptIdentity, prove: () => StepsProof): StepReporter {
  const waiting: AttemptStepEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();
  const flush = () => {
    timer = undefined;
    const steps = waiting.splice(0, STEPS_LIMITS.perSignal);
    if (!steps.length) return;
    const payload = { key: attempt.taskKey, fencingToken: attempt.fencingToken, steps };
    sending = sending
      // Drawn as each signal goes, one after the other: the links reach the run in the chain's order.
      .then(() => client.workflow.getHandle(attempt.workflowId).signal(AGENT_STEPS_SIGNAL, { ...payload, ...prove() }))
      .catch(() => undefined)
      .then(() => {
        if (waiting.length && !timer) timer = setTimeout(flush, 0);
      });
  };
  return {
    emit: (step) => {
      waiting.push(step);
      if (waiting.length > STEP_REPORTING.held) waiting.splice(0, waiting.length - STEP_REPORTING.held);
      timer ??= setTimeout(flush, STEP_REPORTING.flushMs);
    },
    drain: async () => {
      clearTimeout(timer);
      while (waiting.length) flush();
      await Promise.race([sending, new Promise((resolve) => setTimeout(resolve, STEP_REPORTING.drainMs))]);
    },
  };
}
