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
    attemptsSpent: boolean;
    onLeaseLost: 'retry' | 'adjudicate';
    acceptingWork: boolean;
}
/** Why a task whose attempt ended without an outcome cannot simply be leased again. */
export type NoReLease = 'on-lease-lost-adjudicate' | 'attempts-spent' | 'not-accepting-work';
export type Disposition = 
/** Not decided yet: add the tasks the attempt asked for, then route again with `spawn` set. */
{
    to: 'add-tasks';
} | {
    to: 'succeeded';
} | {
    to: 'failed';
    why: 'aborted' | 'unpriced' | 'output-too-large' | 'attempt-failed';
} | {
    to: 'retry';
}
/** Leased again with a new fencing token; `released` when a shutting-down worker handed it back. */
 | {
    to: 're-lease';
    released: boolean;
} | {
    to: 'adjudication';
    code: AdjudicationCode;
    why: 'stopped' | 'usage-unknown' | 'lease-lost' | 'released' | 'spawn-limit' | 'budget-exceeded';
    because?: NoReLease;
};
export declare function defaultStopReason(stop: StopKind, by: string | null): string;
/** Also the failure type the worker gives such an attempt (src/activities/live-budget.ts). */
export declare const BUDGET_EXCEEDED_CODE: AdjudicationCode;
export declare function stopKind(stop: AttemptStop | null): StopKind | null;
/**
 * An attempt that never started (its ledger refused it, or it was cancelled before a worker
 * took it) is handed back as if never claimed; one a human took over is decided like any other.
 */
export declare function neverStarted(outcome: AttemptOutcome['kind'], stop: AttemptStop | null): boolean;
/** Where the outcome sends the task; the first rule that applies wins. */
export declare function route(input: RouteInput): Disposition;
