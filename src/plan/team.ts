/** The `team` executor kind's spec (docs/teams.md). Imports nothing from the plan's schema. */
import { z } from 'zod';

/** The deepest a tree of teams may ever nest, whatever a plan says. */
export const TEAM_DEPTH_MAX = 10;
/** `maxTeamDepth` when a plan sets none. */
export const TEAM_DEPTH_DEFAULT = 3;

/**
 * A team of its own: the attempt is a child `teamRun` workflow running `plan`, inline, its budget carved from this
 * run's. Validated as any plan (src/plan/team-depth.ts), nested at most `maxTeamDepth` levels below the root.
 */
export const TeamExecutorSchema = z
  .object({
    kind: z.literal('team'),
    plan: z.record(z.string(), z.unknown()),
  })
  .strict();
export type TeamExecutorSpec = z.infer<typeof TeamExecutorSchema>;

/**
 * What a child run's parent stamps in its plan as it starts it (docs/teams.md, "Who may cascade"): the parent's run,
 * the task and its fencing token, and `token`, a random value only the parent's start command carried. A cascade
 * (`abortRun { cascade: { token } }`) that quotes it is the parent's and passes the child's governance.
 */
export const ParentLinkSchema = z
  .object({
    run: z.string().min(1).max(1_000),
    key: z.string().min(1).max(128),
    fencingToken: z.number().int().min(1),
    token: z.string().regex(/^[A-Za-z0-9-]{16,64}$/, 'token must be 16..64 chars of [A-Za-z0-9-]'),
  })
  .strict();
export type ParentLink = z.infer<typeof ParentLinkSchema>;
