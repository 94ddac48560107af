"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reserve = reserve;
/** The attempt gateway's `/reserve`: what `teamrun reserve` inside a task asks of its attempt's live budget. */
const zod_1 = require("zod");
const budget_1 = require("../plan/requests/budget");
const live_budget_1 = require("./live-budget");
const ReserveSchema = zod_1.z
    .object({
    tokens: zod_1.z.number().int().nonnegative().max(budget_1.EXTENSION_LIMITS.tokens).optional(),
    usd: zod_1.z.number().nonnegative().max(budget_1.EXTENSION_LIMITS.usd).optional(),
})
    .strict();
/** `teamrun reserve`: the attempt's live reservation asked first; granted, or refused (the attempt is then stopped). */
async function reserve(attempt, body) {
    const parsed = ReserveSchema.safeParse(body);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue.path.length ? issue.path.join('.') : 'payload';
        return [400, { ok: false, code: 'TEAM_ATTEMPT_REQUEST_INVALID', message: `reserve: ${where}: ${issue.message}` }];
    }
    if (!attempt.budget) {
        return [409, { ok: false, code: 'TEAM_ATTEMPT_NO_BUDGET', message: 'reserve: this attempt has no live budget' }];
    }
    if (await attempt.budget.reserve(parsed.data))
        return [200, { ok: true, answer: { granted: parsed.data } }];
    return [
        402,
        {
            ok: false,
            code: live_budget_1.BUDGET_EXCEEDED,
            message: `reserve: the run refused ${parsed.data.tokens ?? 0} tokens and $${parsed.data.usd ?? 0}; ` +
                'the attempt is stopped',
        },
    ];
}
