/**
 * The `linkRun` request: a running attempt's worker tells its run that it started a team run for that attempt
 * (`start_run` through `teamrun mcp`, or `teamrun start`, inside the task), so that the attempt's end aborts it.
 * Parsing only; whether the run takes the link is src/team/coordinated.ts's rule.
 */
import { z } from 'zod';

/** Runs one attempt may have linked at most, whatever its worker allows (each is kept with the attempt). */
export const MAX_LINKED_RUNS = 100;

/** A workflow id as Temporal takes it, bounded. */
const RUN_ID = z.string().min(1).max(255);

export const LinkRunSchema = z
  .object({
    key: z.string().min(1).max(128),
    fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
    runId: RUN_ID,
    /** Who the started run takes the coordinator's abort from (its governance may list only that actor). */
    actor: z.string().min(1).max(200).optional(),
  })
  .strict();
export type LinkRunRequest = z.infer<typeof LinkRunSchema>;
