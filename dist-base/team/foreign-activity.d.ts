import { type AttemptIdentity } from '../activities/interface';
import type { AttemptOutcome, Claim } from './types';
/**
 * The `activity` executor kind: a task whose attempt is any Temporal activity, in any SDK
 * language, on a task queue of its own (docs/activities.md). These are its rules; the workflow
 * only schedules what they say.
 */
/** The one argument a foreign activity receives: language-neutral JSON. */
export interface ForeignActivityInput extends AttemptIdentity {
    /** The executor's `input`, or null when the plan gives none. */
    input: unknown;
    dependencyOutputs: Record<string, unknown>;
    /** Mailbox messages waiting for the task when the attempt started (absent when none). */
    inbox?: Claim['inbox'];
}
export interface ForeignActivityOptions {
    activityType: string;
    taskQueue: string;
    /** The lease: present unless the task says `heartbeat: "optional"`. */
    heartbeatTimeoutMs?: number;
    startToCloseTimeoutMs: number;
}
/** Error types of foreign attempts the run refuses. */
export declare const FOREIGN_FAILURE_TYPES: {
    readonly invalidUsage: 'TeamInvalidUsage';
};
export declare function isForeignActivity(claim: Pick<Claim, 'executor'>): boolean;
export declare function foreignActivityInput(workflowId: string, claim: Claim): ForeignActivityInput;
/**
 * Heartbeats required (the default): the heartbeat timeout is the task's lease TTL, as for every
 * attempt. Optional: no lease at all, and `startToCloseMs` (required then) is the only bound.
 */
export declare function foreignActivityOptions(claim: Claim): ForeignActivityOptions;
/**
 * The envelope rule: a result is `{ output, usage }` when it is an object that has a `usage` key
 * and no key but `output` and `usage`. Anything else, `{ output }` alone included, is the output
 * itself. To output such an object as it is, wrap it: `{ output: <it>, usage: {} }`.
 */
export declare function isResultEnvelope(result: unknown): result is {
    output?: unknown;
    usage: unknown;
};
/**
 * What a foreign activity's result means for its task. Usage is taken as reported (the workflow
 * has no price table: without `costUsd` it is unpriced usage). Usage that does not fit the
 * contract's shape, or an output over the bound, fails the task without retry.
 */
export declare function foreignResultOutcome(result: unknown): AttemptOutcome;
/**
 * A foreign failure's details and heartbeats are whatever the other SDK sent: keep of them only
 * what fits the contract's shapes and bounds, so nothing unbounded enters the run's state.
 */
export declare function boundForeignOutcome(outcome: AttemptOutcome): AttemptOutcome;
