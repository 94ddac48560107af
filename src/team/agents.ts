/**
 * Agent attempts as their run sees them: the steps their worker reports (`agent:turn`,
 * `agent:tool` events, and which turn each agent is in), and whether a steer may reach one. The
 * transcript itself is never here: it lives in the task's journal (src/agent).
 */
import { follows } from '../agent/chain';
import type { AttemptProof } from '../contract';
import { utf8Bytes } from '../plan/bytes';
import { nearest } from '../plan/graph';
import {
  AgentStepsSchema,
  STEER_LIMITS,
  SteerRequestSchema,
  type AgentSteps,
  type SteerRequest,
} from '../plan/requests/agent';
import { TeamControlError, parseControl } from '../plan/requests/control';
import type { RunContext } from './context';
import { checkActor } from './governance';
import type { Attempt } from './types';

/**
 * How a steps signal is proven: its anchor confirmed by the attempt's worker (`confirmed`), the next
 * link of that chain (`link`), or not at all, in a run recorded before the proofs (`unproven`).
 */
export type StepsProven = 'confirmed' | 'link' | 'unproven';

/**
 * The running attempt a steps signal names, as the signal arrives; none: the run no longer awaits
 * it, and its steps are dropped. A signal is taken against this attempt even if it settles while an
 * earlier signal's anchor is being confirmed (its last steps arrive just before its end).
 */
export function stepsAttempt(run: RunContext, payload: unknown): Attempt | undefined {
  const { key, fencingToken } = (typeof payload === 'object' && payload !== null ? payload : {}) as AgentSteps;
  const attempt = typeof key === 'string' ? run.leases.get(key) : undefined;
  return attempt?.fencingToken === fencingToken ? attempt : undefined;
}

/**
 * Records the steps of `attempt` (stepsAttempt) as events, when proven as its steps: a proof that
 * does not follow the attempt's chain drops them. Answers how many it recorded.
 */
export function recordSteps(
  run: RunContext,
  payload: unknown,
  now: number,
  proven: StepsProven,
  attempt: Attempt | undefined = stepsAttempt(run, payload),
): number {
  const parsed = AgentStepsSchema.safeParse(payload);
  if (!parsed.success || !attempt) return 0;
  const { key, fencingToken, steps, anchor, link } = parsed.data;
  if (attempt.fencingToken !== fencingToken) return 0;
  if (proven === 'confirmed') {
    if (!anchor || attempt.stepsChain !== undefined) return 0;
    attempt.stepsChain = anchor;
  } else if (proven === 'link') {
    if (!follows(attempt.stepsChain, link)) return 0;
    attempt.stepsChain = link;
  }
  const progress = run.agents.get(key);
  const current =
    progress?.fencingToken === fencingToken ? progress : { fencingToken, turn: 0, lastTool: null as string | null };
  for (const step of steps) {
    run.events.record(step.type, now, { key, fencingToken, ...step, type: undefined });
    current.turn = Math.max(current.turn, step.turn);
    if (step.type === 'agent:tool') current.lastTool = step.tool;
  }
  run.agents.set(key, current);
  run.touch();
  return steps.length;
}

/**
 * The anchor a steps signal asks its run to confirm with the worker its proof names: only while
 * the attempt's chain is not confirmed yet (so each attempt costs at most one).
 */
export function anchorToConfirm(
  attempt: Attempt,
  payload: unknown,
): { key: string; fencingToken: number; anchor: string; attempt: AttemptProof } | undefined {
  const parsed = AgentStepsSchema.safeParse(payload);
  if (!parsed.success || attempt.stepsChain !== undefined) return undefined;
  const { key, fencingToken, anchor, attempt: proof } = parsed.data;
  if (!anchor || !proof || attempt.fencingToken !== fencingToken) return undefined;
  return { key, fencingToken, anchor, attempt: proof };
}

/** The checks of a steer (CONTRACT `steerTask`), in the update's validator: nothing refused reaches history. */
export function validateSteer(run: RunContext, payload: unknown): SteerRequest & { fencingToken: number } {
  const request = parseControl(SteerRequestSchema, payload, 'steerTask');
  if (utf8Bytes(request.text) > STEER_LIMITS.textBytes)
    throw new TeamControlError('value_too_large', `steerTask: text: at most ${STEER_LIMITS.textBytes} bytes`, 'text');
  checkActor(run.plan, request.actor, 'steerTask');
  const i = run.graph.indexOf(request.key);
  if (i === undefined) {
    const guess = nearest(request.key, run.graph.keys);
    throw new TeamControlError(
      'not_found',
      `steerTask: unknown task "${request.key}"${guess ? ` (did you mean "${guess}"?)` : ''}`,
      'key',
    );
  }
  // A task that is not an agent is never steerable, running or not.
  const kind = run.graph.specs[i].executor.kind;
  if (kind !== 'agent')
    throw new TeamControlError('not_an_agent', `steerTask: task "${request.key}" is a ${kind} task, not an agent`);
  const attempt = run.leases.get(request.key);
  if (!attempt || attempt.stop)
    throw new TeamControlError('not_active', `steerTask: task "${request.key}" has no running attempt`);
  if (request.fencingToken !== undefined && request.fencingToken !== attempt.fencingToken) {
    throw new TeamControlError(
      'stale_attempt',
      `steerTask: fencing token ${request.fencingToken} is not the running attempt's (${attempt.fencingToken})`,
    );
  }
  return { ...request, fencingToken: attempt.fencingToken };
}

export function steered(run: RunContext, request: SteerRequest, fencingToken: number, turn: number, now: number): void {
  run.events.record('agent:steered', now, {
    key: request.key,
    fencingToken,
    turn,
    actor: request.actor ?? null,
    requestId: request.requestId ?? null,
  });
  run.touch();
}
