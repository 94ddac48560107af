"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.recordLost = recordLost;
exports.resolveLost = resolveLost;
const budget_1 = require("../team/budget");
/** Lost attempts and runs the recovery names; past it they are only counted. */
const NAMED = 20;
/**
 * Records a lost attempt: the ledger now requires recovery. What it held is its slot's reservation with every
 * extension when the slot is still there (`slotHeld`), even if its run told less (a run of an older version).
 */
function recordLost(s, events, told, now, slotHeld) {
    const lost = {
        ...told,
        reservation: {
            tokens: Math.max(told.reservation.tokens, slotHeld?.tokens ?? 0),
            usd: Math.max(told.reservation.usd, slotHeld?.usd ?? 0),
        },
    };
    const recovery = s.recovery ?? {
        since: now,
        count: 0,
        attempts: [],
        runs: [],
        reservation: { tokens: 0, usd: 0 },
    };
    recovery.count += 1;
    if (recovery.attempts.length < NAMED)
        recovery.attempts.push(lost.attemptId);
    if (recovery.runs.length < NAMED && !recovery.runs.includes(lost.workflowId)) {
        recovery.runs.push(lost.workflowId);
    }
    recovery.reservation.tokens += lost.reservation.tokens;
    recovery.reservation.usd += lost.reservation.usd;
    s.recovery = recovery;
    events.record('ledger:recovery-required', now, {
        attemptId: lost.attemptId,
        workflowId: lost.workflowId,
        reservation: lost.reservation,
        lost: recovery.count,
    });
}
/**
 * An operator resolves every lost attempt at once: `usage` is what they used together, `release` charges what they
 * held. Returns what to charge, or null when nothing waits for recovery.
 */
function resolveLost(s, events, request, now) {
    const recovery = s.recovery;
    if (!recovery)
        return null;
    const charged = request.usage
        ? { tokens: (0, budget_1.usageTokens)(request.usage), usd: request.usage.costUsd ?? 0 }
        : { ...recovery.reservation };
    const resolution = {
        actor: request.actor,
        at: now,
        count: recovery.count,
        how: request.usage ? 'usage' : 'release',
        charged,
    };
    s.recovery = null;
    s.lastResolution = resolution;
    events.record('ledger:recovery-resolved', now, { ...resolution, attempts: recovery.attempts });
    return resolution;
}
