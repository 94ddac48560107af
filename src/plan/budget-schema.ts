/** A plan's `budget` (docs/budgets.md): the run's limits, its shared ledger, and the limits across its tree. */
import { z } from 'zod';
import { durationMs } from './fields';
import { PLAN_LIMITS } from './limits';

/** A shared ledger's id (`teamrun ledger create <id>`), as a plan's `budget.ledger` names it. */
export const LedgerIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'ledger id must be 1..100 chars of [A-Za-z0-9._-]');

/** A budget's count limit: a whole number from 0 to `max`. */
const count = (max: number) => z.number().int().min(0).max(max).optional();

export const BudgetSchema = z
  .object({
    maxTasks: z.number().int().min(0).optional(),
    maxTokens: z.number().nonnegative().optional(),
    maxUsd: z.number().nonnegative().optional(),
    maxWallMs: durationMs.min(1).optional(),
    /** A budget shared with other runs: every attempt also takes a slot from this ledger. */
    ledger: LedgerIdSchema.optional(),
    /**
     * The run takes its ledger's slots in blocks (src/ledger/blocks.ts): one ledger call for the attempts that start
     * together, later attempts admitted from the block while it lasts, one settlement for all. Absent: a slot each.
     */
    ledgerBlocks: z.boolean().optional(),
    /** Tasks the run may add while it runs, in all (`addTasks`); past it a spawn is refused `max-spawned-tasks`. */
    maxSpawnedTasks: count(PLAN_LIMITS.maxTasks),
    /** Longest parent chain from a plan task (a plan task is depth 0); past it a spawn is refused `max-depth`. */
    maxDepth: z.number().int().min(0).max(100).optional(),
    /** Agent model calls the run may make, in all (every agent task, every attempt); past it a call is refused. */
    maxTurns: count(PLAN_LIMITS.maxTurns),
    /** Limits across the whole tree of teams below this run (docs/budgets.md): each child's carve takes a share. */
    tree: z
      .object({ maxSpawnedTasks: count(PLAN_LIMITS.maxTasks), maxTurns: count(PLAN_LIMITS.maxTurns) })
      .strict()
      .optional(),
  })
  .strict();
export type BudgetLimits = z.infer<typeof BudgetSchema>;
