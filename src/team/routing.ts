/**
 * The rulebook of settlement: where an attempt's outcome sends its task, given how the run
 * stopped the attempt (if it did) and the task's policy, and what each stop says when nobody gave
 * a reason. Pure and total: no state, no time; test/unit/routing.test.ts is its table.
 * settlement.ts applies what it answers.
 */
import { SPAWN_LIMIT_CODE } from './spawn';
import type { AdjudicationCode, AttemptOutcome, AttemptStop } from './types';

/** What stopped the attempt, as routing needs it. */
export type StopKind = 'interrupt' | 'abort' | 'abort-no-adjudication' | 'wall';

/**
 * What a task's settlement added (`::teamrun-tasks::`, an llm answer's `tasks`) came to, if it was tried.
 * `invalid-retryable`: refused as an addition in a history recorded when such a refusal was retried (replay only).
 */
export type SpawnResult = 'added' | 'limit' | 'invalid' | 'invalid-retryable' | 'forbidden';

export interface RouteInput {
  outcome: AttemptOutcome['kind'];
  stop: StopKind | null;
  /** The usage has no price while budget.maxUsd is set. */
  unpriced: boolean;
  /** A lost attempt's usage is unknown and the budget limits tokens or dollars. */
  usageUnknown: boolean;
  /** A completed attempt's output fits in the run's bound on outputs held. */
  outputFits: boolean;
  /** The attempt asked to add tasks. */
  asksToSpawn: boolean;
  /** What adding them came to, once tried. */
  spawn?: SpawnResult;
  /** The executor said the failure is for good. */
  nonRetryable: boolean;
  /** The attempt failed because its run refused it more budget while it ran (`TEAM_TASK_BUDGET_EXCEEDED`). */
  budgetExceeded?: boolean;
  /** The attempt failed because its worker saw no step for its `stallAfterMs` (`TEAM_TASK_STALLED`). */
  stalled?: boolean;
  /** The attempt's model provider did not answer within its `modelRetry` (`TEAM_TASK_MODEL_UNAVAILABLE`). */
  modelUnavailable?: boolean;
  attemptsSpent: boolean;
  onLeaseLost: 'retry' | 'adjudicate';
  acceptingWork: boolean;
}

/** Why a task whose attempt ended without an outcome cannot simply be leased again. */
export type NoReLease = 'on-lease-lost-adjudicate' | 'attempts-spent' | 'not-accepting-work';

export type Disposition =
  /** Not decided yet: add the tasks the attempt asked for, then route again with `spawn` set. */
  | { to: 'add-tasks' }
  | { to: 'succeeded' }
  | { to: 'failed'; why: 'aborted' | 'unpriced' | 'output-too-large' | 'attempt-failed' }
  | { to: 'retry' }
  /** Leased again with a new fencing token; `released` when a shutting-down worker handed it back. */
  | { to: 're-lease'; released: boolean }
  | {
      to: 'adjudication';
      code: AdjudicationCode;
      why:
        | 'stopped'
        | 'usage-unknown'
        | 'lease-lost'
        | 'released'
        | 'spawn-limit'
        | 'budget-exceeded'
        | 'stalled'
        | 'model-unavailable';
      because?: NoReLease;
    };

const STOP_CODE: Record<StopKind, AdjudicationCode> = {
  interrupt: 'TEAM_TASK_HUMAN_INTERRUPTED',
  abort: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
  'abort-no-adjudication': 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED',
  wall: 'TEAM_WALL_BUDGET_EXHAUSTED',
};

/**
 * What an adjudication of a stopped attempt gives as its reason when the stop came without one: each stop its own
 * (`by` is who asked, when known), so an interrupt never reads as the wall clock.
 */
const STOP_REASON: Record<StopKind, (by: string | null) => string> = {
  interrupt: (by) => `interrupted by ${by ?? 'an operator'}`,
  abort: (by) => `run aborted by ${by ?? 'an operator'}`,
  'abort-no-adjudication': (by) => `run aborted by ${by ?? 'an operator'}`,
  wall: () => 'wall-clock budget exhausted',
};

export function defaultStopReason(stop: StopKind, by: string | null): string {
  return STOP_REASON[stop](by);
}

const ABANDONED: AdjudicationCode = 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED';
/** Also the failure type the worker gives such an attempt (src/activities/live-budget.ts). */
export const BUDGET_EXCEEDED_CODE: AdjudicationCode = 'TEAM_TASK_BUDGET_EXCEEDED';
/** Also the failure type the worker gives an attempt it stopped as stalled (src/activities/stall-watch.ts). */
export const STALLED_CODE: AdjudicationCode = 'TEAM_TASK_STALLED';
/** Also the failure type of an agent or llm attempt whose model provider stayed down (executors/model-retry.ts). */
export const MODEL_UNAVAILABLE_CODE: AdjudicationCode = 'TEAM_TASK_MODEL_UNAVAILABLE';

export function stopKind(stop: AttemptStop | null): StopKind | null {
  if (!stop) return null;
  if (stop.kind === 'abort') return stop.requireAdjudication ? 'abort' : 'abort-no-adjudication';
  return stop.kind;
}

/**
 * An attempt that never started (its ledger refused it, or it was cancelled before a worker
 * took it) is handed back as if never claimed; one a human took over is decided like any other.
 */
export function neverStarted(outcome: AttemptOutcome['kind'], stop: AttemptStop | null): boolean {
  return outcome === 'not-started' && stop?.kind !== 'interrupt';
}

/** Where the outcome sends the task; the first rule that applies wins. */
export function route(input: RouteInput): Disposition {
  const { outcome, stop } = input;
  if (stop === 'abort-no-adjudication') return { to: 'failed', why: 'aborted' };
  // A success that races a stop is evidence, never a success.
  if (stop) return { to: 'adjudication', code: STOP_CODE[stop], why: 'stopped' };
  if (input.unpriced) return { to: 'failed', why: 'unpriced' };
  // Stopped on its worker, like an interrupt: what it did is for a human to judge, and a retry would spend again.
  if (outcome === 'failed' && input.budgetExceeded)
    return { to: 'adjudication', code: BUDGET_EXCEEDED_CODE, why: 'budget-exceeded' };
  // Stopped on its worker for making no step: a retry would likely stall again, so a human judges.
  if (outcome === 'failed' && input.stalled) return { to: 'adjudication', code: STALLED_CODE, why: 'stalled' };
  // The provider was down for all of the task's `modelRetry`: a person retries it once it is back, the run waits.
  if (outcome === 'failed' && input.modelUnavailable)
    return { to: 'adjudication', code: MODEL_UNAVAILABLE_CODE, why: 'model-unavailable' };
  if (input.usageUnknown) return { to: 'adjudication', code: ABANDONED, why: 'usage-unknown' };
  if (outcome === 'lease-lost' || outcome === 'released') {
    const lost = outcome === 'lease-lost';
    const because = noReLease(input, lost);
    if (because) return { to: 'adjudication', code: ABANDONED, why: lost ? 'lease-lost' : 'released', because };
    return { to: 're-lease', released: !lost };
  }
  if (outcome === 'completed') {
    if (!input.outputFits) return { to: 'failed', why: 'output-too-large' };
    if (input.asksToSpawn && input.spawn === undefined) return { to: 'add-tasks' };
    if (input.spawn === 'limit') return { to: 'adjudication', code: SPAWN_LIMIT_CODE, why: 'spawn-limit' };
    if (input.spawn === undefined || input.spawn === 'added') return { to: 'succeeded' };
  }
  // Tasks refused as an addition (a cycle, a key taken, a bad field) would be printed and refused again by a retry.
  const refusedAddition = input.spawn === 'forbidden' || input.spawn === 'invalid';
  const forGood = (outcome === 'failed' && input.nonRetryable) || refusedAddition;
  return forGood || input.attemptsSpent ? { to: 'failed', why: 'attempt-failed' } : { to: 'retry' };
}

function noReLease(input: RouteInput, lost: boolean): NoReLease | null {
  if (lost && input.onLeaseLost === 'adjudicate') return 'on-lease-lost-adjudicate';
  if (lost && input.attemptsSpent) return 'attempts-spent';
  if (!input.acceptingWork) return 'not-accepting-work';
  return null;
}
