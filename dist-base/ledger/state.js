"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.round = void 0;
exports.ledgerStatus = ledgerStatus;
/** The `status` query: limits, what is used, reserved and left, the slots and runs, the newest events. */
function ledgerStatus(s, slots, runs, events, now) {
    const { limits, used, reserved } = s;
    const left = (max, spent) => (max === undefined ? null : Math.max(0, max - spent));
    const recovery = s.recovery ?? null;
    // What lost attempts held stays held until an operator resolves them.
    const lost = recovery?.reservation ?? { tokens: 0, usd: 0 };
    return {
        id: s.id,
        state: recovery ? 'recovery_required' : s.exhausted ? 'exhausted' : 'open',
        limits,
        createdAt: s.createdAt,
        window: limits.windowMs === undefined
            ? null
            : { ms: limits.windowMs, startedAt: s.windowStartedAt, resetsAt: s.windowStartedAt + limits.windowMs },
        inFlight: slots.length,
        used: { tokens: used.tokens, usd: (0, exports.round)(used.usd), attempts: used.attempts },
        reserved: { tokens: reserved.tokens, usd: (0, exports.round)(reserved.usd) },
        remaining: {
            concurrent: left(limits.maxConcurrent, slots.length),
            tokens: left(limits.maxTokens, used.tokens + reserved.tokens + lost.tokens),
            usd: limits.maxUsd === undefined ? null : (0, exports.round)(Math.max(0, limits.maxUsd - used.usd - reserved.usd - lost.usd)),
        },
        exhausted: s.exhausted,
        recovery,
        lastResolution: s.lastResolution ?? null,
        slots: slots.map((slot) => ({ ...slot, expiresInMs: Math.max(0, slot.expiresAt - now) })),
        runs,
        counters: { ...s.counters },
        lastAbort: s.lastAbort,
        recentEvents: events.slice(-50),
    };
}
const round = (usd) => Math.round(usd * 1e6) / 1e6;
exports.round = round;
