/**
 * The `extendReservation` request: a running attempt asks its run for more than it was granted.
 * Parsing only; whether the run grants it is src/team/extensions.ts's rule.
 */
import { z } from 'zod';

/** Bounds on one extension: far past any real ask, so a typo cannot reserve the whole budget by accident. */
export const EXTENSION_LIMITS = {
  /** Tokens one request may ask for. */
  tokens: 1_000_000_000,
  /** Dollars one request may ask for. */
  usd: 1_000_000,
  /** Model calls one request may ask to make (an agent asks for one before each call). */
  turns: 1_000,
} as const;

export const ExtendReservationSchema = z
  .object({
    key: z.string().min(1).max(128),
    fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
    tokens: z.number().int().nonnegative().max(EXTENSION_LIMITS.tokens).optional(),
    usd: z.number().nonnegative().max(EXTENSION_LIMITS.usd).optional(),
    /** Agent model calls about to be made: admitted against `budget.maxTurns` and `budget.tree.maxTurns`. */
    turns: z.number().int().nonnegative().max(EXTENSION_LIMITS.turns).optional(),
    actor: z.string().min(1).max(200).optional(),
  })
  .strict();
export type ExtendReservationRequest = z.infer<typeof ExtendReservationSchema>;
