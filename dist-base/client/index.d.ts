import { Client, type WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { type TeamrunConfig } from '../config/config';
import type { TeamPlanInput } from '../plan/schema';
import type { teamRun } from '../workflows/team-run';
import { type TeamRunControls } from './handle';
export * as messages from '../workflows/messages';
export * from './handle';
/** The contract's types (src/contract): what every query, update and the run answer. */
export type * from '../contract';
/** The default task queue of CONTRACT.md, used when neither the options nor a config name one. */
export declare const DEFAULT_TASK_QUEUE = "teamrun";
/**
 * A client for the config's cluster and namespace (by default the config `loadConfig()` finds:
 * teamrun.yaml, the temporal.toml profile, TEMPORAL_* variables). An unreachable server fails
 * after the connect timeout (2 s), not after the SDK's retries. With `codec:` set in the config,
 * the client encrypts and decrypts payloads with it; with tracing on (docs/observability.md), its
 * calls are spans.
 */
export declare function connectClient(config?: TeamrunConfig): Promise<Client>;
export interface StartTeamRunOptions {
    /** Task queue the workers poll (default `teamrun`). */
    taskQueue?: string;
    /** Workflow id (default `<plan name>-<timestamp>`); one that is running already is refused. */
    workflowId?: string;
}
/** Starts a team run and returns its handle: `result()`, `status()`, `interrupt()`, `abort()`, `adjudicate()`, ... */
export declare function startTeamRun(client: Client, plan: TeamPlanInput, options?: StartTeamRunOptions): Promise<WorkflowHandleWithFirstExecutionRunId<typeof teamRun> & TeamRunControls>;
export { cancelledRunResult, teamRunResult } from './result';
