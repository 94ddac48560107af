"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AttemptBudget = exports.RESERVE_STOP_GRACE_MS = exports.BUDGET_EXCEEDED = void 0;
const routing_1 = require("../team/routing");
const pricing_1 = require("./pricing");
/** The failure type, and adjudication code, of an attempt its run refused more budget. */
exports.BUDGET_EXCEEDED = routing_1.BUDGET_EXCEEDED_CODE;
const USD_EPSILON = 1e-9;
/**
 * A refused `reserve` stops the attempt this long after it answers: the process that asked (`teamrun
 * reserve`, exit 3) can see the refusal. Nothing it spends meanwhile was granted, and it is charged.
 */
exports.RESERVE_STOP_GRACE_MS = 1_000;
const roundUsd = (usd) => Math.ceil(usd * 1e9 - 1e-3) / 1e9;
class AttemptBudget {
    limited;
    prices;
    ask;
    onRefused;
    granted;
    used = { tokens: 0, usd: 0 };
    /** Why the run refused, once it did: the attempt is being stopped. */
    refusal = null;
    /** Reserved through `reserve` and not yet reported. */
    promised = { tokens: 0, usd: 0 };
    /** One ask at a time, in order: two asks never both count the same part of the grant. */
    queue = Promise.resolve();
    constructor(limited, prices, ask, onRefused) {
        this.limited = limited;
        this.prices = prices;
        this.ask = ask;
        this.onRefused = onRefused;
        this.granted = { tokens: limited.tokens ?? 0, usd: limited.usd ?? 0 };
    }
    reserve(ask) {
        return this.serially(async () => {
            const wanted = { tokens: Math.max(0, ask.tokens ?? 0), usd: Math.max(0, ask.usd ?? 0) };
            const short = this.shortBy(wanted, this.promised);
            if (short && !(await this.extend(short, exports.RESERVE_STOP_GRACE_MS)))
                return false;
            this.promised.tokens += wanted.tokens;
            this.promised.usd += wanted.usd;
            return true;
        });
    }
    report(usage) {
        return this.serially(async () => {
            const priced = (0, pricing_1.priceUsage)(usage, this.prices);
            const spent = {
                tokens: (priced?.inputTokens ?? 0) + (priced?.outputTokens ?? 0) + (priced?.cacheTokens ?? 0),
                usd: priced?.costUsd ?? 0,
            };
            this.used.tokens += spent.tokens;
            this.used.usd += spent.usd;
            // What was reserved for it is spent now.
            this.promised.tokens = Math.max(0, this.promised.tokens - spent.tokens);
            this.promised.usd = Math.max(0, this.promised.usd - spent.usd);
            const over = this.shortBy({ tokens: 0, usd: 0 }, this.promised);
            return over ? this.extend(over, 0) : true;
        });
    }
    /** What the grant lacks to cover usage, what was promised and `more`; null when it covers them. */
    shortBy(more, promised) {
        const need = (limited, granted, used, held, extra) => limited === null ? 0 : Math.max(0, used + held + extra - granted);
        const tokens = need(this.limited.tokens, this.granted.tokens, this.used.tokens, promised.tokens, more.tokens);
        const usd = need(this.limited.usd, this.granted.usd, this.used.usd, promised.usd, more.usd);
        if (tokens <= 0 && usd <= USD_EPSILON)
            return null;
        return {
            ...(tokens > 0 ? { tokens: Math.ceil(tokens) } : {}),
            ...(usd > USD_EPSILON ? { usd: roundUsd(usd) } : {}),
        };
    }
    /** `graceMs`: how long the refused attempt's processes have to hear the answer before they are stopped. */
    async extend(extension, graceMs) {
        if (this.refusal)
            return false;
        let answer;
        try {
            answer = await this.ask(extension);
        }
        catch (err) {
            answer = { ok: false, code: 'TEAM_ATTEMPT_GATEWAY_FAILED', message: err?.message ?? String(err) };
        }
        if (answer.ok) {
            this.granted.tokens = Math.max(this.granted.tokens, answer.granted.tokens);
            this.granted.usd = Math.max(this.granted.usd, answer.granted.usd);
            return true;
        }
        const refusal = { code: answer.code, message: answer.message };
        this.refusal = refusal;
        if (graceMs > 0)
            setTimeout(() => this.onRefused(refusal), graceMs).unref();
        else
            this.onRefused(refusal);
        return false;
    }
    serially(step) {
        const next = this.queue.then(step, step);
        this.queue = next.catch(() => undefined);
        return next;
    }
}
exports.AttemptBudget = AttemptBudget;
