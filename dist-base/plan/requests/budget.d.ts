/**
 * The `extendReservation` request: a running attempt asks its run for more than it was granted.
 * Parsing only; whether the run grants it is src/team/extensions.ts's rule.
 */
import { z } from 'zod';
/** Bounds on one extension: far past any real ask, so a typo cannot reserve the whole budget by accident. */
export declare const EXTENSION_LIMITS: {
    /** Tokens one request may ask for. */
    readonly tokens: 1000000000;
    /** Dollars one request may ask for. */
    readonly usd: 1000000;
};
export declare const ExtendReservationSchema: z.ZodObject<{
    key: z.ZodString;
    fencingToken: z.ZodUnion<readonly [z.ZodNumber, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>]>;
    tokens: z.ZodOptional<z.ZodNumber>;
    usd: z.ZodOptional<z.ZodNumber>;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type ExtendReservationRequest = z.infer<typeof ExtendReservationSchema>;
