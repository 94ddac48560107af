"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExtendReservationSchema = exports.EXTENSION_LIMITS = void 0;
/**
 * The `extendReservation` request: a running attempt asks its run for more than it was granted.
 * Parsing only; whether the run grants it is src/team/extensions.ts's rule.
 */
const zod_1 = require("zod");
/** Bounds on one extension: far past any real ask, so a typo cannot reserve the whole budget by accident. */
exports.EXTENSION_LIMITS = {
    /** Tokens one request may ask for. */
    tokens: 1_000_000_000,
    /** Dollars one request may ask for. */
    usd: 1_000_000,
};
exports.ExtendReservationSchema = zod_1.z
    .object({
    key: zod_1.z.string().min(1).max(128),
    fencingToken: zod_1.z.union([zod_1.z.number().int(), zod_1.z.string().regex(/^\d+$/).transform(Number)]),
    tokens: zod_1.z.number().int().nonnegative().max(exports.EXTENSION_LIMITS.tokens).optional(),
    usd: zod_1.z.number().nonnegative().max(exports.EXTENSION_LIMITS.usd).optional(),
    actor: zod_1.z.string().min(1).max(200).optional(),
})
    .strict();
