/**
 * Agent attempts as their run sees them: the steps their worker reports (`agent:turn`,
 * `agent:tool` events, and which turn each agent is in), and whether a steer may reach one. The
 * transcript itself is never here: it lives in the task's journal (src/agent).
 */
import { follows } from '../agent/chain';
import type { AttemptProof } from '../contract';
import { utf8Bytes } from '../plan/bytes';
import { AgentStepsSchema, STEER_LIMITS, SteerRequestSchema, type SteerRequest } from '../plan/requests/agent';
import { TeamControlError, parseControl } from '../plan/requests/control';
import type { RunContext } from './context';
import { checkActor } from './governance';

/**
 * How a steps signal is proven: its anchor confirmed by the attempt's worker (`confirmed`), the next
 * link of that chain (`link`), or not at all, in a run recorded before the proofs (`unproven`).
 */
export type StepsProven = 'confirmed' | 'link' | 'unproven';

/**
 * Records an attempt's steps as events, when proven as its steps; steps of an attempt the run no
 * longer awaits, or whose proof does not follow its chain, are dropped. Answers how many it recorded.
 */
export function recordSteps(run: RunContext, payload: unknown, now: number, proven: StepsProven = 'link'): number {
  const parsed = AgentStepsSchema.safeParse(payload);
  if (!parsed.success) return 0;
  const { key, fencingToken, steps, anchor, link } = parsed.data;
  const attempt = run.leases.get(key);
  if (!attempt || attempt.fencingToken !== fencingToken) return 0;
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
 * The anchor a steps signal asks its run to confirm with the worker its proof names: only for an
 * attempt the run awaits and whose chain it has not confirmed yet (so each attempt costs at most one).
 */
export function anchorToConfirm(
  run: RunContext,
  payload: unknown,
): { key: string; fencingToken: number; anchor: string; attempt: AttemptProof } | undefined {
  const parsed = AgentStepsSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const { key, fencingToken, anchor, attempt } = parsed.data;
  const running = run.leases.get(key);
  if (!anchor || !attempt || running?.fencingToken !== fencingToken || running.stepsChain !== undefined) return;
  return { key, fencingToken, anchor, attempt };
}

/** The checks of a steer (CONTRACT `steerTask`), in the update's validator: nothing refused reaches history. */
export function validateSteer(run: RunContext, payload: unknown): SteerRequest & { fencingToken: number } {
  const request = parseControl(SteerRequestSchema, payload, 'steerTask');
  if (utf8Bytes(request.text) > STEER_LIMITS.textBytes)
    throw new TeamControlError('value_too_large', `steerTask: text: at most ${STEER_LIMITS.textBytes} bytes`, 'text');
  checkActor(run.plan, request.actor, 'steerTask');
  // A task that is not an agent is never steerable, running or not.
  const i = run.graph.indexOf(request.key);
  const kind = i === undefined ? undefined : run.graph.specs[i].executor.kind;
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
