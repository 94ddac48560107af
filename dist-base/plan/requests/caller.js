"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AttemptProofSchema = void 0;
exports.callerOf = callerOf;
/**
 * Who a request says it is from: the optional `actor` and the worker's proof (`attempt`) that any
 * message may carry beside its own fields. Parsing only: whether that caller may send it is the
 * run's rule (src/team/governance.ts).
 */
const zod_1 = require("zod");
const lease_pace_1 = require("../lease-pace");
const control_1 = require("./control");
exports.AttemptProofSchema = zod_1.z
    .object({
    queue: zod_1.z.string().min(1).max(lease_pace_1.MAX_STOP_QUEUE_CHARS),
    nonce: zod_1.z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'nonce must be 16..64 chars of [A-Za-z0-9_-]'),
})
    .strict();
const CallerSchema = zod_1.z.object({
    // A malformed actor is the request's own schema's to refuse, with its own code.
    actor: zod_1.z.string().min(1).max(200).optional().catch(undefined),
    attempt: exports.AttemptProofSchema.optional(),
});
function callerOf(payload, message) {
    // Not an object: the request's own schema refuses it with its own code.
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
        return { request: payload };
    const { actor, attempt } = (0, control_1.parseControl)(CallerSchema, payload, message);
    const { attempt: _proof, ...request } = payload;
    return { ...(actor ? { actor } : {}), ...(attempt ? { attempt } : {}), request };
}
