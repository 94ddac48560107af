"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loosenings = loosenings;
exports.ledgerBudgetReason = ledgerBudgetReason;
const SPEND_LIMITS = ['maxConcurrent', 'maxTokens', 'maxUsd'];
/** Each loosening from `from` to `to`, as `maxUsd 5 -> 10` (`none` where a limit is absent); empty when none. */
function loosenings(from, to) {
    const shown = (n) => (n === undefined ? 'none' : String(n));
    const found = [];
    for (const name of SPEND_LIMITS) {
        const was = from[name];
        const now = to[name];
        if (was !== undefined && (now === undefined || now > was))
            found.push(`${name} ${shown(was)} -> ${shown(now)}`);
    }
    const window = (ms) => (ms === undefined ? 'never' : `${ms} ms`);
    if (to.windowMs !== undefined && (from.windowMs === undefined || to.windowMs < from.windowMs)) {
        found.push(`windowMs ${window(from.windowMs)} -> ${window(to.windowMs)}`);
    }
    return found;
}
/** The budget reason a run stops with when its ledger refuses an attempt for good (null: not a limit). */
function ledgerBudgetReason(reason) {
    if (reason === 'max-tokens')
        return 'ledger-max-tokens';
    if (reason === 'max-usd')
        return 'ledger-max-usd';
    if (reason === 'unpriced-usage')
        return 'unpriced-usage';
    return null;
}
