"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.extensionRefusal = extensionRefusal;
exports.growSlot = growSlot;
const admission_1 = require("./admission");
const state_1 = require("./state");
/** Extension ids a slot remembers: a retry comes within seconds, long before this many more extensions. */
const REMEMBERED = 64;
/**
 * Why the ledger refuses to grow the slot at `now`; null when it fits (or this extension grew it already). What is
 * used, every live slot's reservation and the ask together must stay within each limit; a spent or recovering
 * ledger grants nothing.
 */
function extensionRefusal(s, slots, request, now) {
    const live = slots.filter((slot) => slot.expiresAt > now);
    const slot = live.find((held) => held.attemptId === request.attemptId);
    const refuse = (reason, why) => ({
        ok: false,
        reason,
        message: `ledger ${s.id}: cannot extend attempt ${request.attemptId}: ${why}`,
    });
    if (!slot)
        return refuse('no-slot', 'it holds no slot (settled, expired or never admitted)');
    if (slot.extensions?.includes(request.extensionId))
        return null;
    const { limits } = s;
    const newWindow = limits.windowMs !== undefined && now >= s.windowStartedAt + limits.windowMs;
    const exhausted = newWindow ? null : s.exhausted;
    if (exhausted)
        return refuse(exhausted.reason, `${exhausted.reason} was crossed`);
    if (s.recovery) {
        return refuse('recovery-required', `recovery required: ${s.recovery.count} lost attempt(s) have unknown usage; an operator runs ` +
            `\`teamrun ledger resolve ${s.id} --usage '{...}'\` or \`--release\``);
    }
    const used = newWindow ? { tokens: 0, usd: 0 } : s.used;
    const held = live.reduce((sum, each) => ({ tokens: sum.tokens + each.reservation.tokens, usd: sum.usd + each.reservation.usd }), { tokens: 0, usd: 0 });
    const { tokens, usd } = request.extension;
    if (limits.maxTokens !== undefined && used.tokens + held.tokens + tokens > limits.maxTokens) {
        return refuse('max-tokens', `maxTokens ${limits.maxTokens} (used ${used.tokens}, reserved ${held.tokens}, asked ${tokens})`);
    }
    if (limits.maxUsd !== undefined && used.usd + held.usd + usd > limits.maxUsd + admission_1.USD_EPSILON) {
        return refuse('max-usd', `maxUsd ${limits.maxUsd} (used ${(0, state_1.round)(used.usd)}, reserved ${(0, state_1.round)(held.usd)}, asked ${(0, state_1.round)(usd)})`);
    }
    return null;
}
/** Grows the slot, and what the ledger holds, by the extension the caller checked fits; false if it grew it already. */
function growSlot(s, slot, request) {
    if (slot.extensions?.includes(request.extensionId))
        return false;
    const { tokens, usd } = request.extension;
    slot.reservation = { tokens: slot.reservation.tokens + tokens, usd: slot.reservation.usd + usd };
    s.reserved.tokens += tokens;
    s.reserved.usd += usd;
    slot.extensions = [...(slot.extensions ?? []), request.extensionId].slice(-REMEMBERED);
    return true;
}
