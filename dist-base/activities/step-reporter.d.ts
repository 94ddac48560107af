/**
 * `ctx.emit` for an attempt: its steps (`agent:turn`, `agent:tool`) reach the run's event log as
 * the worker's `agentSteps` signal, batched (one signal per flush, at most STEPS_LIMITS.perSignal
 * steps) and bounded (past `held` waiting steps the oldest are dropped). A step is reporting, not
 * state: a signal that fails is dropped, and the run drops steps of an attempt it no longer awaits.
 */
import type { Client } from '@temporalio/client';
import type { AttemptStepEvent } from './executors/types';
import { type AttemptIdentity } from './interface';
export declare const STEP_REPORTING: {
    /** How long a step waits for others to share its signal. */
    readonly flushMs: 250;
    /** Steps held while a signal is on its way. */
    readonly held: 200;
    /** How long an ending attempt waits for its last steps to reach the run. */
    readonly drainMs: 2000;
};
export interface StepReporter {
    emit: (step: AttemptStepEvent) => void;
    /** Sends what waits, before the attempt reports its end (the run records the last step before it settles). */
    drain: () => Promise<void>;
}
export declare function stepReporter(client: Client, attempt: AttemptIdentity): StepReporter;
