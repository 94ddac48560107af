import type { Client } from '@temporalio/client';
import type { TeamrunConfig } from '../config/config';
import type { AttemptGateway } from './attempt-gateway';
import type { Adopting, AttemptStops } from './attempt-stops';
import type { Executor } from './executors';
import { type TeamActivities } from './interface';
import type { Redactor } from './redact';
import type { ToolboxFactory } from './tools/types';
export interface ActivityDeps {
    config: TeamrunConfig;
    executors: Map<string, Executor>;
    workerIdentity: string;
    /** This worker's stop queue and running attempts: a long attempt announces the queue to its run. */
    stops?: AttemptStops;
    env?: NodeJS.ProcessEnv;
    /** Reaches a shared ledger, to renew the slot of an attempt whose plan names one. */
    client?: Client;
    /** The worker's secrets; by default the ones its config and environment name (see secrets.ts). */
    redactor?: Redactor;
    /** Lets the attempt's processes speak to the run as the attempt; its redactor adds the attempt's secret. */
    gateway?: AttemptGateway;
    /** The worker's MCP servers and custom tools, opened per attempt by the executors that call tools. */
    tools?: ToolboxFactory;
}
/**
 * `runTask`: one attempt of one task. Its heartbeats are the lease: they run on their own
 * timer whatever the executor does, at the lease's pace, and none before the first is due (a
 * short attempt sends none). Cancellation arrives in the response to one, or, for an attempt
 * past `announceAfterMs` that told its run where it runs, at once through the worker's stop queue.
 * Such an attempt can also outlive its activity when its run continues as new: the next run
 * adopts it (`adoptAttempt`, see attempt-runner.ts and src/team/handover.ts).
 */
export declare function createActivities(deps: ActivityDeps): TeamActivities;
/**
 * How this worker attends an attempt the next run adopts (`adoptAttempt` on its stop queue): as
 * runTask did, heartbeating for the new run. It lets go in turn when that run continues as new.
 */
export declare function adoptingFor(stops: AttemptStops): Adopting;
