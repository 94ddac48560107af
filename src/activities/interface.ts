import type { ExecutorSpec, Usage } from '../plan/schema';
import type { LedgerLease } from './ledger-interface';

/**
 * What the workflow hands one attempt, and what the attempt hands back. This file has no
 * Node imports: the workflow uses it too.
 */
export interface RunTaskInput {
  workflowId: string;
  taskKey: string;
  title: string;
  attempt: number;
  fencingToken: number;
  leaseId: string;
  holder: string;
  executor: ExecutorSpec;
  dependencyOutputs: Record<string, unknown>;
  /** The shared-ledger slot this attempt holds, which it renews while it runs. */
  ledger?: LedgerLease;
}

export interface RunTaskResult {
  output?: unknown;
  usage?: Usage;
  workerIdentity: string;
}

/** Carried in a failure's details and a cancellation's details: what the attempt did before it stopped. */
export interface AttemptEvidence {
  usage?: Usage;
  output?: unknown;
  workerIdentity: string;
}

/** Carried in every heartbeat. */
export interface HeartbeatDetails {
  workerIdentity: string;
  fencingToken: number;
  elapsedMs: number;
  progress?: unknown;
}

/** Failure types the workflow tells apart. */
export const FAILURE_TYPES = {
  /** The worker is shutting down: the attempt is handed back to be re-leased, not adjudicated. */
  workerShutdown: 'TeamWorkerShutdown',
  executorNotEnabled: 'TeamExecutorNotEnabled',
  invalidExecutor: 'TeamInvalidExecutor',
  outputTooLarge: 'TeamOutputTooLarge',
  invalidPlan: 'InvalidTeamPlan',
} as const;

/** Bound on one task's output, which travels through history to its dependents. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

export interface TeamActivities {
  runTask(input: RunTaskInput): Promise<RunTaskResult>;
}
