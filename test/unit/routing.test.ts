import { describe, expect, it } from 'vitest';
import {
  defaultStopReason,
  neverStarted,
  route,
  stopKind,
  type Disposition,
  type RouteInput,
} from '../../src/team/routing';

/**
 * The rulebook of settlement: where one attempt's outcome sends its task. Each row is one
 * route, read as "given this outcome and this run, the task goes there"; the first rule that
 * applies wins, so each row sets only what it needs on top of a plain running attempt.
 */
const attempt: RouteInput = {
  outcome: 'completed',
  stop: null,
  unpriced: false,
  usageUnknown: false,
  outputFits: true,
  asksToSpawn: false,
  nonRetryable: false,
  attemptsSpent: false,
  onLeaseLost: 'retry',
  acceptingWork: true,
};

const ABANDONED = 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED';

const rules: Array<[string, Partial<RouteInput>, Disposition]> = [
  // A person or the run stopped the attempt: what it returned is evidence, never a result.
  ['an abort without adjudication fails the task', { stop: 'abort-no-adjudication' }, { to: 'failed', why: 'aborted' }],
  [
    'an abort sends even a success to adjudication',
    { stop: 'abort' },
    { to: 'adjudication', code: 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED', why: 'stopped' },
  ],
  [
    'a human takeover sends even a success to adjudication',
    { stop: 'interrupt' },
    { to: 'adjudication', code: 'TEAM_TASK_HUMAN_INTERRUPTED', why: 'stopped' },
  ],
  [
    'a takeover of an attempt that never started is decided like any other',
    { outcome: 'not-started', stop: 'interrupt' },
    { to: 'adjudication', code: 'TEAM_TASK_HUMAN_INTERRUPTED', why: 'stopped' },
  ],
  [
    'the wall clock sends a running attempt to adjudication',
    { stop: 'wall', outcome: 'failed' },
    { to: 'adjudication', code: 'TEAM_WALL_BUDGET_EXHAUSTED', why: 'stopped' },
  ],
  // The budget.
  ['usage with no price while maxUsd is set fails the task', { unpriced: true }, { to: 'failed', why: 'unpriced' }],
  [
    'a lost lease under a token or dollar limit goes to adjudication (usage unknown)',
    { outcome: 'lease-lost', usageUnknown: true },
    { to: 'adjudication', code: ABANDONED, why: 'usage-unknown' },
  ],
  // Leases lost or handed back.
  ['a lost lease is leased again', { outcome: 'lease-lost' }, { to: 're-lease', released: false }],
  [
    'a lost lease with onLeaseLost "adjudicate" goes to adjudication',
    { outcome: 'lease-lost', onLeaseLost: 'adjudicate' },
    { to: 'adjudication', code: ABANDONED, why: 'lease-lost', because: 'on-lease-lost-adjudicate' },
  ],
  [
    'a lost lease with its attempts spent goes to adjudication',
    { outcome: 'lease-lost', attemptsSpent: true },
    { to: 'adjudication', code: ABANDONED, why: 'lease-lost', because: 'attempts-spent' },
  ],
  [
    'a lost lease once the run takes no work goes to adjudication',
    { outcome: 'lease-lost', acceptingWork: false },
    { to: 'adjudication', code: ABANDONED, why: 'lease-lost', because: 'not-accepting-work' },
  ],
  [
    'an attempt handed back by a shutting-down worker is leased again, even with its attempts spent',
    { outcome: 'released', attemptsSpent: true, onLeaseLost: 'adjudicate' },
    { to: 're-lease', released: true },
  ],
  [
    'an attempt handed back once the run takes no work goes to adjudication',
    { outcome: 'released', acceptingWork: false },
    { to: 'adjudication', code: ABANDONED, why: 'released', because: 'not-accepting-work' },
  ],
  // Completed attempts.
  ['a completed attempt succeeds', {}, { to: 'succeeded' }],
  [
    "an output past the run's bound on outputs fails the task",
    { outputFits: false, asksToSpawn: true },
    { to: 'failed', why: 'output-too-large' },
  ],
  ['a completed attempt that asks to add tasks adds them first', { asksToSpawn: true }, { to: 'add-tasks' }],
  ['... and succeeds once they are added', { asksToSpawn: true, spawn: 'added' }, { to: 'succeeded' }],
  [
    '... goes to adjudication when they pass a spawn limit',
    { asksToSpawn: true, spawn: 'limit' },
    { to: 'adjudication', code: 'TEAM_TASK_SPAWN_LIMIT_EXCEEDED', why: 'spawn-limit' },
  ],
  [
    '... fails for good when they are not a valid addition (a retry would be refused the same)',
    { asksToSpawn: true, spawn: 'invalid' },
    { to: 'failed', why: 'attempt-failed' },
  ],
  [
    '... is retried when they were refused in a history recorded before such refusals failed for good',
    { asksToSpawn: true, spawn: 'invalid-retryable' },
    { to: 'retry' },
  ],
  [
    '... fails for good when the task may not add tasks',
    { asksToSpawn: true, spawn: 'forbidden' },
    { to: 'failed', why: 'attempt-failed' },
  ],
  // Failed attempts.
  ['a failed attempt is retried', { outcome: 'failed' }, { to: 'retry' }],
  [
    'a failed attempt with its attempts spent fails the task',
    { outcome: 'failed', attemptsSpent: true },
    { to: 'failed', why: 'attempt-failed' },
  ],
  [
    'a non-retryable failure fails the task at once',
    { outcome: 'failed', nonRetryable: true },
    { to: 'failed', why: 'attempt-failed' },
  ],
  [
    'an attempt its run refused more budget goes to adjudication, not retried',
    { outcome: 'failed', nonRetryable: true, budgetExceeded: true },
    { to: 'adjudication', code: 'TEAM_TASK_BUDGET_EXCEEDED', why: 'budget-exceeded' },
  ],
  [
    'an attempt its worker stopped as stalled goes to adjudication, not retried, even with attempts left',
    { outcome: 'failed', nonRetryable: true, stalled: true },
    { to: 'adjudication', code: 'TEAM_TASK_STALLED', why: 'stalled' },
  ],
  [
    'a stalled attempt a human interrupted meanwhile is adjudicated as interrupted',
    { outcome: 'failed', nonRetryable: true, stalled: true, stop: 'interrupt' },
    { to: 'adjudication', code: 'TEAM_TASK_HUMAN_INTERRUPTED', why: 'stopped' },
  ],
  [
    'an attempt whose model provider stayed down for all of its modelRetry goes to adjudication, not retried',
    { outcome: 'failed', nonRetryable: true, modelUnavailable: true },
    { to: 'adjudication', code: 'TEAM_TASK_MODEL_UNAVAILABLE', why: 'model-unavailable' },
  ],
  [
    '... even with its attempts spent: the run waits for a person, it does not fail',
    { outcome: 'failed', nonRetryable: true, modelUnavailable: true, attemptsSpent: true },
    { to: 'adjudication', code: 'TEAM_TASK_MODEL_UNAVAILABLE', why: 'model-unavailable' },
  ],
  [
    '... but a stop that raced it decides as a stop',
    { outcome: 'failed', modelUnavailable: true, stop: 'interrupt' },
    { to: 'adjudication', code: 'TEAM_TASK_HUMAN_INTERRUPTED', why: 'stopped' },
  ],
  [
    'a model call refused for good (401, 404) fails the task at once',
    { outcome: 'failed', nonRetryable: true },
    { to: 'failed', why: 'attempt-failed' },
  ],
  ['an attempt cancelled though nobody stopped it is retried', { outcome: 'cancelled' }, { to: 'retry' }],
  [
    'an attempt cancelled with its attempts spent fails the task',
    { outcome: 'cancelled', attemptsSpent: true },
    { to: 'failed', why: 'attempt-failed' },
  ],
];

describe("where an attempt's outcome sends its task", () => {
  it.each(rules)('%s', (_rule, given, expected) => {
    expect(route({ ...attempt, ...given })).toEqual(expected);
  });

  it('hands back an attempt that never started, unless a human took it over', () => {
    expect(neverStarted('not-started', null)).toBe(true);
    expect(neverStarted('not-started', { kind: 'abort', requireAdjudication: true })).toBe(true);
    expect(neverStarted('not-started', { kind: 'wall' })).toBe(true);
    const interruption = { requestId: null, actor: null, reason: null, evidenceDigest: null, requestedAt: 0 };
    expect(neverStarted('not-started', { kind: 'interrupt', interruption })).toBe(false);
    expect(neverStarted('completed', null)).toBe(false);
  });

  it('each stop given no reason says what it was, and who asked when known; an interrupt never reads as the wall clock', () => {
    expect(defaultStopReason('interrupt', 'alice')).toBe('interrupted by alice');
    expect(defaultStopReason('interrupt', null)).toBe('interrupted by an operator');
    expect(defaultStopReason('abort', 'bob')).toBe('run aborted by bob');
    expect(defaultStopReason('abort-no-adjudication', null)).toBe('run aborted by an operator');
    expect(defaultStopReason('wall', 'alice')).toBe('wall-clock budget exhausted');
  });

  it('tells an abort that requires adjudication from one that does not', () => {
    expect(stopKind({ kind: 'abort', requireAdjudication: true })).toBe('abort');
    expect(stopKind({ kind: 'abort', requireAdjudication: false })).toBe('abort-no-adjudication');
    expect(stopKind({ kind: 'wall' })).toBe('wall');
    expect(stopKind(null)).toBeNull();
  });
});
