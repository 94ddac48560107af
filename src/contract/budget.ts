/**
 * The budget as a run reports it: stop reasons and the `budget` query's answer. Shapes only;
 * src/team/budget.ts keeps the accounting and must satisfy these.
 */
import type { BudgetLimits } from '../plan/schema';

export type { ExtendReservationRequest } from '../plan/requests/budget';

export type BudgetReason =
  | 'max-tasks'
  | 'max-tokens'
  | 'max-usd'
  | 'max-wall-ms'
  /** `budget.maxTurns` or `budget.tree.maxTurns`: an agent model call the run (or its tree) has no turn left for. */
  | 'max-turns'
  | 'unpriced-usage'
  /** An attempt's outcome and usage were lost (its lease expired) while a token or dollar limit is set. */
  | 'usage-unknown'
  /** The run's shared ledger (`budget.ledger`) refused an attempt for good. */
  | 'ledger-max-tokens'
  | 'ledger-max-usd';

/** The `budget` query's answer, and `budget` in the status and the result. */
export interface BudgetView {
  limits: BudgetLimits;
  /**
   * `turns`: agent model calls the run admitted (every agent task, every attempt; docs/budgets.md). Absent in the
   * results of runs older than it.
   */
  used: { tasks: number; tokens: number; usd: number; wallMs: number; turns?: number };
  reserved: { tokens: number; usd: number };
  /** What is left of each limit; null where the plan sets none. */
  remaining: {
    tasks: number | null;
    tokens: number | null;
    usd: number | null;
    wallMs: number | null;
    turns?: number | null;
  };
  stopped: boolean;
  reason: BudgetReason | null;
  /** An attempt's usage was lost: `used` counts at least its reservation. */
  usageUnknown: boolean;
  /**
   * With `budget.tree`: tasks spawned across the tree below this run (its own, its ended children's), and what its
   * running children hold of the limit; `turns` and `turnsHeldByChildren` the same for agent model calls.
   */
  tree?: { spawnedTasks: number; heldByChildren: number; turns?: number; turnsHeldByChildren?: number };
}

/**
 * The `extendReservation` update's answer: what the attempt holds now, its reservation and every
 * extension granted so far (released at settlement, when its usage is charged instead).
 */
export interface ExtendReservationVerdict {
  ok: true;
  granted: { tokens: number; usd: number };
}

/** Why `extendReservation` is refused (the update's failure type): the budget's reason, or who asked. */
export type ExtendReservationRejectReason =
  BudgetReason | 'stale_attempt' | 'not_found' | 'forbidden' | 'invalid_request' | 'value_too_large';
