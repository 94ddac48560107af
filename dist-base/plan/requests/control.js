"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TightenBudgetRequestSchema = exports.TIGHTENED_LIMITS = exports.AdjudicateRequestSchema = exports.DECISIONS = exports.AbortRequestSchema = exports.InterruptRequestSchema = exports.AbortCodeSchema = exports.ABORT_CODE_DEFAULT = exports.MESSAGE_LIMITS = exports.TeamControlError = void 0;
exports.parseControl = parseControl;
exports.parseRequest = parseRequest;
/**
 * Control messages' payloads (interrupt, abort, adjudicate): their zod schemas and bounds, and
 * the error a refused one raises. Parsing only: whether a request applies is the run's rule
 * (src/team/takeover.ts, decisions.ts); the verdicts are declared in src/contract.
 */
const zod_1 = require("zod");
const errors_1 = require("../../errors");
/** A control request that cannot apply; `code` is the stable reason a client sees. */
class TeamControlError extends errors_1.TeamrunError {
    code;
    field;
    constructor(code, message, 
    /** The field that was wrong (`reason`, `result`), when one was. */
    field = null) {
        super(message);
        this.code = code;
        this.field = field;
        this.name = 'TeamControlError';
    }
}
exports.TeamControlError = TeamControlError;
/**
 * Bounds on every value a control message brings into the run's state. Past one, an update's
 * validator refuses it (`value_too_large`, naming the field) and a signal is recorded as
 * `control:rejected`: nothing oversized is ever held. docs/bounds.md lists them.
 */
exports.MESSAGE_LIMITS = {
    /** requestId, actor, decisionId. */
    idChars: 200,
    /** reason. */
    reasonChars: 1_000,
    evidenceDigestChars: 256,
    /** An adjudication's `result`, as JSON: the same bound as a task's output. */
    resultBytes: 64 * 1024,
};
const text = zod_1.z.string().max(exports.MESSAGE_LIMITS.reasonChars);
const id = zod_1.z.string().min(1).max(exports.MESSAGE_LIMITS.idChars);
const digest = zod_1.z.string().max(exports.MESSAGE_LIMITS.evidenceDigestChars);
/** Default code on the adjudications an abort creates; an `abortRun { code }` replaces it. */
exports.ABORT_CODE_DEFAULT = 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED';
exports.AbortCodeSchema = zod_1.z.string().regex(/^[A-Z0-9_]{1,64}$/, 'code must be 1..64 chars of [A-Z0-9_]');
exports.InterruptRequestSchema = zod_1.z.object({
    key: zod_1.z.string().min(1).max(128),
    fencingToken: zod_1.z.union([zod_1.z.number().int(), zod_1.z.string().regex(/^\d+$/).transform(Number)]).optional(),
    requestId: id.optional(),
    actor: id.optional(),
    reason: text.optional(),
    evidenceDigest: digest.optional(),
});
exports.AbortRequestSchema = zod_1.z.object({
    code: exports.AbortCodeSchema.optional(),
    reason: text.optional(),
    requestId: id.optional(),
    actor: id.optional(),
    requireAdjudication: zod_1.z.boolean().optional(),
});
exports.DECISIONS = ['retry', 'accept', 'reject'];
exports.AdjudicateRequestSchema = zod_1.z.object({
    key: zod_1.z.string().min(1).max(128),
    decision: zod_1.z.enum(exports.DECISIONS),
    decisionId: id,
    actor: id.optional(),
    reason: text.optional(),
    evidenceDigest: digest.optional(),
    result: zod_1.z.unknown().optional(),
});
exports.TIGHTENED_LIMITS = ['maxTasks', 'maxTokens', 'maxUsd', 'maxWallMs'];
/**
 * `tightenBudget`: new limits for a running run, each only lower than (or equal to) the one it replaces; a limit the
 * plan did not set may be added. At least one limit; an unknown field (a typo) is refused.
 */
exports.TightenBudgetRequestSchema = zod_1.z
    .object({
    maxTasks: zod_1.z.number().int().min(0).optional(),
    maxTokens: zod_1.z.number().nonnegative().optional(),
    maxUsd: zod_1.z.number().nonnegative().optional(),
    maxWallMs: zod_1.z.number().int().min(1).optional(),
    requestId: id.optional(),
    actor: id.optional(),
})
    .strict()
    .refine((r) => exports.TIGHTENED_LIMITS.some((limit) => r[limit] !== undefined), {
    message: 'give at least one of maxTasks, maxTokens, maxUsd, maxWallMs',
});
/** Parses a control payload; a malformed one is a `TeamControlError` naming the field. */
function parseControl(schema, payload, message) {
    return parseRequest(schema, payload, message, {
        tooLarge: 'value_too_large',
        malformed: (field) => codeForMalformed(message, field),
        withField: true,
    });
}
/**
 * Parses a request of `message` with `schema`; the first problem is thrown as a `TeamControlError`
 * saying where (`message: path: problem`), with `tooLarge` for a value past its bound and
 * `malformed(first path segment)` for anything else, and the path as its field when `withField`.
 */
function parseRequest(schema, payload, message, codes) {
    const parsed = schema.safeParse(payload);
    if (parsed.success)
        return parsed.data;
    const issue = parsed.error.issues[0];
    const path = issue.path.length ? issue.path.join('.') : null;
    const code = issue.code === 'too_big' ? codes.tooLarge : codes.malformed(issue.path[0]);
    throw new TeamControlError(code, `${message}: ${path ?? 'payload'}: ${issue.message}`, codes.withField ? path : null);
}
function codeForMalformed(message, field) {
    if (message !== 'adjudicate')
        return 'invalid_request';
    if (field === 'decision')
        return 'invalid_decision';
    if (field === 'decisionId')
        return 'decision_id_required';
    if (field === 'key')
        return 'not_found';
    return 'invalid_request';
}
