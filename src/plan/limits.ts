import { z } from 'zod';

/** Limits that keep one run's input and state well inside Temporal's payload and history limits. */
export const PLAN_LIMITS = {
  maxTasks: 20_000,
  /** Temporal allows 2,000 pending activities per workflow: half of them stay free for stops and foreign work. */
  maxTeammates: 1_000,
  maxDependsOn: 1_000,
  maxScope: 64,
  /** Names in `governance.operators`, an approval's `approvers` and a ledger's operators. */
  maxOperators: 64,
  maxTitle: 500,
  maxCommand: 64 * 1024,
  /** An `agent-cli` task's prompt; with its inbox it must still fit one argument of the CLI's command line. */
  maxAgentPrompt: 64 * 1024,
  /** An `activity` task's `input`, as JSON: the same bound as a task's output. */
  maxActivityInputBytes: 64 * 1024,
  maxActivityQueues: 64,
  /** Temporal's own limit on activity type and task queue names is far larger; these keep history small. */
  maxActivityName: 256,
  /** A plan's JSON as submitted: Temporal's 2 MB payload limit less room for the rest of the start request. */
  maxPlanBytes: 1536 * 1024,
  /**
   * The plan as a run carries it in the snapshot it hands to itself when it continues as new
   * (packed: see team/snapshot.ts): well under the payload limit, leaving room for the state.
   */
  maxPackedPlanBytes: 640 * 1024,
  /** `budget.maxTurns` and `budget.tree.maxTurns`: agent model calls, far past any real run's. */
  maxTurns: 100_000_000,
} as const;

/** An actor's name as a list of who may act names it: `governance.operators`, a ledger's operators. */
export const OperatorNameSchema = z.string().min(1).max(200);

/** Temporal's default limit on one payload (a workflow's input, a continue-as-new snapshot, an update). */
export const TEMPORAL_PAYLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/**
 * When a run hands over to a fresh workflow run (continue-as-new): at this many history events,
 * or earlier when Temporal suggests it. Well under the 10,240 events at which Temporal warns;
 * the lower bound leaves every run room to make progress between handovers.
 */
export const CONTINUE_AS_NEW_EVENTS = { min: 200, max: 10_000, default: 8_000 } as const;

/**
 * ... and at this many bytes of history, whatever the count: a few large signals (which
 * Temporal records before the workflow can refuse them) fill history long before many events
 * do. Temporal warns at 10 MB and terminates a run at 50 MB; the room above this one lets
 * in-flight attempts settle before the handover.
 */
export const CONTINUE_AS_NEW_HISTORY_BYTES = 8 * 1024 * 1024;
