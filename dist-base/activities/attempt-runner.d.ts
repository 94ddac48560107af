/**
 * The core of one attempt on a worker: the executor running (a `LiveAttempt`), and an activity
 * attending it (`attend`): heartbeating its lease, passing cancellation on, and turning what the
 * executor ended with into the attempt's result or failure (redacted, priced, bounded). runTask
 * starts an attempt and attends it; when its run continues as new, adoptAttempt attends the same
 * executor for the next run, so both answer alike.
 */
import { type Context } from '@temporalio/activity';
import type { TeamrunConfig } from '../config/config';
import { type Executor, type ExecutorContext, type ExecutorResult } from './executors';
import { type RunTaskInput, type RunTaskResult } from './interface';
import type { OpenedAttempt } from './attempt-gateway';
import { AttemptBudget } from './live-budget';
import type { Redactor } from './redact';
import type { ToolboxFactory } from './tools/types';
/** What an attempt's reports need from its worker. */
export interface Reporting {
    config: TeamrunConfig;
    workerIdentity: string;
    redactor: Redactor;
}
type Ended = {
    ok: true;
    result: ExecutorResult;
} | {
    ok: false;
    error: unknown;
};
/** An executor running one attempt, whichever activity (runTask, then adopts) attends it. */
export declare class LiveAttempt {
    readonly input: RunTaskInput;
    /** This attempt's reporting: its redactor knows the attempt's own secret too. */
    readonly reporting: Reporting;
    readonly started: number;
    /** What the executor obeys: its attendant's cancellation, or a stop delivered on the worker's stop queue. */
    readonly stop: AbortController;
    progress: unknown;
    /** Settles (never rejects) when the executor ends. */
    readonly ended: Promise<Ended>;
    /** The attendant's way to send a heartbeat at once (a stop asks the server for the attempt's cancellation). */
    beatNow: () => void;
    /** Null until the first activity attends: aborting a controller nobody listens to still costs a DOMException. */
    private attendant;
    /** The attempt's live reservation, when its run counts spend and the gateway can reach the run. */
    readonly budget?: AttemptBudget;
    constructor(input: RunTaskInput, executor: Executor, 
    /** This attempt's reporting: its redactor knows the attempt's own secret too. */
    reporting: Reporting, env: NodeJS.ProcessEnv, gate?: OpenedAttempt, tools?: ToolboxFactory, 
    /** Records the attempt's steps as run events (agent kinds); absent on a worker without a client. */
    emit?: ExecutorContext['emit']);
    /** A new activity attends the attempt; the one before it (if any) lets go. Aborted when the next one attaches. */
    attach(): AbortSignal;
}
/** How `attend` ended when its activity let go of the attempt instead of reporting it. */
export declare const DETACHED: unique symbol;
/**
 * Attends `live` for the activity of `ctx` until the executor ends (then reports it as runTask's
 * result or failure), or until the activity lets go: a later adopt attached, or the activity's run
 * is gone (`notFound`) while `handedOver()` says the next run will adopt the attempt. Anything
 * else that cancels the activity stops the executor, as before.
 */
export declare function attend(ctx: Context, live: LiveAttempt, heartbeatEveryMs: number, handedOver: () => boolean): Promise<RunTaskResult | typeof DETACHED>;
export {};
