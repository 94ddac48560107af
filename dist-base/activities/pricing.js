"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UsageRecords = exports.MAX_USAGE_RECORDS = void 0;
exports.priceUsage = priceUsage;
/** Distinct (model, has-cost) records one attempt keeps; records past it are merged into one unpriced record. */
exports.MAX_USAGE_RECORDS = 256;
const tokensOf = (u) => (u.inputTokens ?? 0) + (u.outputTokens ?? 0) + (u.cacheTokens ?? 0);
const sum = (a, b) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
function merge(a, b) {
    return {
        inputTokens: sum(a.inputTokens, b.inputTokens),
        outputTokens: sum(a.outputTokens, b.outputTokens),
        cacheTokens: sum(a.cacheTokens, b.cacheTokens),
        costUsd: sum(a.costUsd, b.costUsd),
        unpricedTokens: sum(a.unpricedTokens, b.unpricedTokens),
        model: a.model,
    };
}
/**
 * The usage records of one attempt, each to be priced on its own. Records of the same model,
 * both with or both without a reported cost, are merged (pricing is linear, so this changes
 * nothing); memory stays bounded however many lines a task prints.
 */
class UsageRecords {
    byKind = new Map();
    overflow;
    add(record) {
        const kind = `${record.costUsd === undefined ? 'unpriced' : 'costed'}:${record.model ?? ''}`;
        const known = this.byKind.get(kind);
        if (known) {
            this.byKind.set(kind, merge(known, record));
        }
        else if (this.byKind.size < exports.MAX_USAGE_RECORDS) {
            this.byKind.set(kind, { ...record });
        }
        else {
            // Too many models to price one by one: counted, and never priced (fails closed under maxUsd).
            const tokens = tokensOf(record) + (record.unpricedTokens ?? 0);
            this.overflow = merge(this.overflow ?? { model: '(too many models)' }, { unpricedTokens: tokens });
        }
    }
    get records() {
        return [...this.byKind.values(), ...(this.overflow ? [this.overflow] : [])];
    }
    get empty() {
        return this.byKind.size === 0 && !this.overflow;
    }
}
exports.UsageRecords = UsageRecords;
/**
 * What an attempt reports: every record priced on its own (its own `costUsd` when it has one,
 * else its model's price, per million tokens), summed. Tokens of a record with neither a cost
 * nor a priced model are counted in `unpricedTokens`: the run decides whether that is allowed.
 */
function priceUsage(usage, prices) {
    if (usage === undefined)
        return undefined;
    const records = Array.isArray(usage) ? usage : [usage];
    if (records.length === 0)
        return undefined;
    const priceOf = (model) => {
        if (model === undefined)
            return undefined;
        if (prices instanceof Map)
            return prices.get(model);
        return Object.hasOwn(prices, model) ? prices[model] : undefined;
    };
    let total;
    const models = [];
    for (const record of records) {
        const priced = priceRecord(record, priceOf(record.model));
        if (record.model !== undefined && !models.includes(record.model))
            models.push(record.model);
        total = total ? merge(total, priced) : { ...priced };
    }
    if (!total)
        return undefined;
    const model = models.join(', ');
    const result = {
        ...(total.inputTokens !== undefined ? { inputTokens: total.inputTokens } : {}),
        ...(total.outputTokens !== undefined ? { outputTokens: total.outputTokens } : {}),
        ...(total.cacheTokens !== undefined ? { cacheTokens: total.cacheTokens } : {}),
        ...(model ? { model: model.length > 200 ? `${model.slice(0, 197)}...` : model } : {}),
        ...(total.costUsd !== undefined ? { costUsd: Math.round(total.costUsd * 1e9) / 1e9 } : {}),
        ...(total.unpricedTokens ? { unpricedTokens: total.unpricedTokens } : {}),
    };
    return result;
}
/** One record with `costUsd` filled from its model's price, or its tokens counted as unpriced. */
function priceRecord(record, price) {
    if (record.costUsd !== undefined)
        return record;
    const tokens = tokensOf(record);
    if (!price) {
        return tokens > 0 || record.unpricedTokens
            ? { ...record, unpricedTokens: tokens + (record.unpricedTokens ?? 0) }
            : record;
    }
    const costUsd = ((record.inputTokens ?? 0) * price.inputPerMTok +
        (record.outputTokens ?? 0) * price.outputPerMTok +
        (record.cacheTokens ?? 0) * (price.cachePerMTok ?? price.inputPerMTok)) /
        1_000_000;
    return { ...record, costUsd };
}
