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
