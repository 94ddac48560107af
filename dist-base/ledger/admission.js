"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.USD_EPSILON = void 0;
exports.admissionRefusal = admissionRefusal;
const state_1 = require("./state");
exports.USD_EPSILON = 1e-9;
/** Why `acquire` would refuse `request` at `now`; null when it fits. */
function admissionRefusal(s, slots, settled, request, now) {
    const { limits } = s;
    const { attemptId, reservation } = request;
    const live = slots.filter((slot) => slot.expiresAt > now);
    if (live.some((slot) => slot.attemptId === attemptId))
        return null;
    if (settled.has(attemptId)) {
        return { ok: false, reason: 'settled', retryable: false, message: `attempt ${attemptId} was already settled` };
    }
    const newWindow = limits.windowMs !== undefined && now >= s.windowStartedAt + limits.windowMs;
    const exhausted = newWindow ? null : s.exhausted;
    const used = newWindow ? { tokens: 0, usd: 0 } : s.used;
    const held = live.reduce((sum, slot) => ({ tokens: sum.tokens + slot.reservation.tokens, usd: sum.usd + slot.reservation.usd }), {
        tokens: 0,
        usd: 0,
    });
    if (exhausted) {
        return {
            ok: false,
            reason: exhausted.reason,
            retryable: false,
            message: `ledger ${s.id}: ${exhausted.reason} was crossed`,
        };
    }
    const recovery = s.recovery;
    if (recovery) {
        return {
            ok: false,
            reason: 'recovery-required',
            retryable: true,
            message: `ledger ${s.id}: recovery required: ${recovery.count} lost attempt(s) have unknown usage; ` +
                `an operator runs \`teamrun ledger resolve ${s.id} --usage '{...}'\` or \`--release\``,
        };
    }
    if (limits.maxConcurrent !== undefined && live.length >= limits.maxConcurrent) {
        return {
            ok: false,
            reason: 'max-concurrent',
            retryable: true,
            message: `ledger ${s.id}: ${live.length} of ${limits.maxConcurrent} slots in use`,
        };
    }
    const fits = (reason, max, spent, reserved, asked, eps) => {
        if (max === undefined)
            return null;
        // Spent, or more than could ever fit: waiting cannot help.
        if (spent >= max - eps || spent + asked > max + eps) {
            const message = `ledger ${s.id}: ${reason} ${max} spent (used ${(0, state_1.round)(spent)}, asked ${(0, state_1.round)(asked)})`;
            return { ok: false, reason, retryable: false, message };
        }
        if (spent + reserved + asked > max + eps) {
            const message = `ledger ${s.id}: ${reason} ${max} reserved by attempts in flight`;
            return { ok: false, reason, retryable: true, message };
        }
        return null;
    };
    return (fits('max-tokens', limits.maxTokens, used.tokens, held.tokens, reservation.tokens, 0) ??
        fits('max-usd', limits.maxUsd, used.usd, held.usd, reservation.usd, exports.USD_EPSILON));
}
