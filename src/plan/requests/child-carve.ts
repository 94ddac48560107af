/**
 * `extendChildCarve`: a child team run asks its parent for more than its carve (docs/budgets.md, the tree). Sent by
 * the child's worker (an activity) as an update on the parent; parsing only, the parent's rule is
 * src/team/child-budget.ts.
 */
import { z } from 'zod';
import { EXTENSION_LIMITS } from './budget';
import { PLAN_LIMITS } from '../limits';

/** The update's name on the wire (the workflow defines it; the worker's activity sends it by name). */
export const EXTEND_CHILD_CARVE = 'extendChildCarve';

/** Where a child stands in its parent: stamped by the parent in the child's plan as it starts it. */
export const TeamParentSchema = z
  .object({
    workflowId: z.string().min(1).max(1_000),
    key: z.string().min(1).max(128),
    fencingToken: z.number().int().min(1),
  })
  .strict();
export type TeamParent = z.infer<typeof TeamParentSchema>;

export const ExtendChildCarveSchema = z
  .object({
    /** The team task and its live attempt's token in the parent. */
    key: z.string().min(1).max(128),
    fencingToken: z.number().int().min(1),
    /** The child's own workflow id and first run id: the parent started that child for that attempt. */
    childWorkflowId: z.string().min(1).max(1_000),
    childRunId: z.string().min(1).max(200),
    tokens: z.number().int().nonnegative().max(EXTENSION_LIMITS.tokens).optional(),
    usd: z.number().nonnegative().max(EXTENSION_LIMITS.usd).optional(),
    /** More attempts of `maxTasks` (a child whose share is spent and has tasks ready); granted in part or refused. */
    tasks: z.number().int().min(1).max(PLAN_LIMITS.maxTasks).optional(),
  })
  .strict();
export type ExtendChildCarveRequest = z.infer<typeof ExtendChildCarveSchema>;

/** What the parent granted: all of the tokens and dollars asked; of attempts, as many as it had (at least one). */
export interface ChildCarveGrant {
  tokens: number;
  usd: number;
  tasks?: number;
}

/** What the parent answers: what it granted, or why not. */
export type ExtendChildCarveVerdict =
  { ok: true; granted: ChildCarveGrant } | { ok: false; code: string; message: string };

/** The worker's activity that sends a child's ask to its parent (src/activities/parent-carve.ts). */
export interface ChildBudgetActivities {
  extendParentCarve(input: {
    parentWorkflowId: string;
    /** One id per ask: a retried activity finds the parent's answer instead of asking twice. */
    updateId: string;
    request: ExtendChildCarveRequest;
  }): Promise<ExtendChildCarveVerdict>;
}
