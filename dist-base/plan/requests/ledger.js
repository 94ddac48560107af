"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LedgerRequestError = exports.ResolveRequestSchema = exports.ConfigureRequestSchema = exports.AbortAllRequestSchema = exports.RenewRequestSchema = exports.ExtendRequestSchema = exports.SettleRequestSchema = exports.AcquireRequestSchema = exports.UnregisterRequestSchema = exports.RegisterRequestSchema = exports.LedgerLimitsSchema = exports.ledgerActor = exports.ledgerWorkflowId = exports.LedgerIdSchema = void 0;
exports.parseLedgerRequest = parseLedgerRequest;
/**
 * The shared ledger's message payloads: zod schemas, the ledger's workflow id, and the error a
 * refused request raises. Parsing only; the rules are in src/ledger/rules.ts, the Temporal side in
 * src/ledger/workflow.ts.
 */
const zod_1 = require("zod");
const errors_1 = require("../../errors");
const schema_1 = require("../schema");
var schema_2 = require("../schema");
Object.defineProperty(exports, "LedgerIdSchema", { enumerable: true, get: function () { return schema_2.LedgerIdSchema; } });
/** The ledger's workflow id; also the actor its cascade aborts carry. */
const ledgerWorkflowId = (id) => `ledger:${id}`;
exports.ledgerWorkflowId = ledgerWorkflowId;
exports.ledgerActor = exports.ledgerWorkflowId;
exports.LedgerLimitsSchema = zod_1.z
    .object({
    /** Attempts in flight across every run that uses the ledger. */
    maxConcurrent: zod_1.z.number().int().min(1).optional(),
    maxTokens: zod_1.z.number().nonnegative().optional(),
    maxUsd: zod_1.z.number().nonnegative().optional(),
    /** Usage resets every `windowMs` (e.g. a day); absent = one window forever. */
    windowMs: zod_1.z.number().int().min(1_000).optional(),
})
    .strict();
const workflowId = zod_1.z.string().min(1).max(1_000);
/** `<workflowId>/<taskKey>/<fencingToken>`: the leaseId of the attempt. */
const attemptId = zod_1.z.string().min(1).max(1_500);
const reservation = zod_1.z.object({ tokens: zod_1.z.number().nonnegative(), usd: zod_1.z.number().nonnegative() }).strict();
/** `<who>` in the ledger's records: an operator's name. */
const actor = zod_1.z.string().min(1).max(200);
exports.RegisterRequestSchema = zod_1.z.object({ workflowId, name: zod_1.z.string().max(200).optional() }).strict();
exports.UnregisterRequestSchema = zod_1.z.object({ workflowId }).strict();
exports.AcquireRequestSchema = zod_1.z
    .object({
    attemptId,
    workflowId,
    reservation,
    /** How long the slot lives without a renewal. */
    leaseMs: zod_1.z.number().int().min(1_000),
})
    .strict();
exports.SettleRequestSchema = zod_1.z
    .object({
    attemptId,
    usage: schema_1.UsageSchema.nullable(),
    /** The attempt's outcome was lost (its lease expired): its usage is unknown, `reservation` what it held. */
    lost: zod_1.z.object({ reservation, workflowId }).strict().optional(),
})
    .strict();
/**
 * A running attempt's slot grows by `extension`: its run granted the attempt that much more. `extensionId` is the
 * run's name for this one extension, so a retried request grows the slot once.
 */
exports.ExtendRequestSchema = zod_1.z
    .object({ attemptId, extensionId: zod_1.z.string().min(1).max(200), extension: reservation })
    .strict();
exports.RenewRequestSchema = zod_1.z.object({ attemptId }).strict();
exports.AbortAllRequestSchema = zod_1.z
    .object({ reason: zod_1.z.string().max(4_000).optional(), actor: zod_1.z.string().min(1).max(500).optional() })
    .strict();
/** New limits; a loosening needs `force` and the `actor` who forces it. */
exports.ConfigureRequestSchema = zod_1.z
    .object({ limits: exports.LedgerLimitsSchema, force: zod_1.z.boolean().optional(), actor: actor.optional() })
    .strict();
/**
 * An operator settles a ledger's lost attempts: the usage they had (`usage`, all of them together) or their
 * reservations as the charge (`release`); exactly one of the two.
 */
exports.ResolveRequestSchema = zod_1.z
    .object({ usage: schema_1.UsageSchema.optional(), release: zod_1.z.literal(true).optional(), actor })
    .strict()
    .refine((r) => (r.usage === undefined) !== (r.release === undefined), {
    message: 'give either usage or release: true, not both or neither',
});
/** A malformed ledger request: `code` is stable, the message names the field. */
class LedgerRequestError extends errors_1.TeamrunError {
    code = 'invalid_ledger_request';
    constructor(message) {
        super(message);
        this.name = 'LedgerRequestError';
    }
}
exports.LedgerRequestError = LedgerRequestError;
function parseLedgerRequest(schema, payload, message) {
    const parsed = schema.safeParse(payload);
    if (parsed.success)
        return parsed.data;
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : 'payload';
    throw new LedgerRequestError(`${message}: ${where}: ${issue.message}`);
}
