import type { Price } from '../config/config';
import type { Usage } from '../plan/schema';

/** Distinct (model, has-cost) records one attempt keeps; records past it are merged into one unpriced record. */
export const MAX_USAGE_RECORDS = 256;

const tokensOf = (u: Usage) =>
  (u.inputTokens ?? 0) + (u.outputTokens ?? 0) + (u.cacheTokens ?? 0) + (u.cacheWriteTokens ?? 0);
const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));

function merge(a: Usage, b: Usage): Usage {
  return {
    inputTokens: sum(a.inputTokens, b.inputTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    cacheTokens: sum(a.cacheTokens, b.cacheTokens),
    cacheWriteTokens: sum(a.cacheWriteTokens, b.cacheWriteTokens),
    reasoningTokens: sum(a.reasoningTokens, b.reasoningTokens),
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
export class UsageRecords {
  private readonly byKind = new Map<string, Usage>();
  private overflow: Usage | undefined;

  add(record: Usage): void {
    const kind = `${record.costUsd === undefined ? 'unpriced' : 'costed'}:${record.model ?? ''}`;
    const known = this.byKind.get(kind);
    if (known) {
      this.byKind.set(kind, merge(known, record));
    } else if (this.byKind.size < MAX_USAGE_RECORDS) {
      this.byKind.set(kind, { ...record });
    } else {
      // Too many models to price one by one: counted, and never priced (fails closed under maxUsd).
      const tokens = tokensOf(record) + (record.unpricedTokens ?? 0);
      this.overflow = merge(this.overflow ?? { model: '(too many models)' }, { unpricedTokens: tokens });
    }
  }

  get records(): Usage[] {
    return [...this.byKind.values(), ...(this.overflow ? [this.overflow] : [])];
  }

  get empty(): boolean {
    return this.byKind.size === 0 && !this.overflow;
  }
}

/**
 * What an attempt reports: every record priced on its own (its own `costUsd` when it has one,
 * else its model's price, per million tokens), summed. Tokens of a record with neither a cost
 * nor a priced model are counted in `unpricedTokens`: the run decides whether that is allowed.
 */
export function priceUsage(
  usage: Usage | Usage[] | undefined,
  prices: ReadonlyMap<string, Price> | Record<string, Price>,
): Usage | undefined {
  if (usage === undefined) return undefined;
  const records = Array.isArray(usage) ? usage : [usage];
  if (records.length === 0) return undefined;
  const priceOf = (model: string | undefined): Price | undefined => {
    if (model === undefined) return undefined;
    if (prices instanceof Map) return prices.get(model);
    return Object.hasOwn(prices, model) ? (prices as Record<string, Price>)[model] : undefined;
  };
  let total: Usage | undefined;
  const models: string[] = [];
  for (const record of records) {
    const priced = priceRecord(record, priceOf(record.model));
    if (record.model !== undefined && !models.includes(record.model)) models.push(record.model);
    total = total ? merge(total, priced) : { ...priced };
  }
  if (!total) return undefined;
  const model = models.join(', ');
  const result: Usage = {
    ...(total.inputTokens !== undefined ? { inputTokens: total.inputTokens } : {}),
    ...(total.outputTokens !== undefined ? { outputTokens: total.outputTokens } : {}),
    ...(total.cacheTokens !== undefined ? { cacheTokens: total.cacheTokens } : {}),
    ...(total.cacheWriteTokens !== undefined ? { cacheWriteTokens: total.cacheWriteTokens } : {}),
    ...(total.reasoningTokens !== undefined ? { reasoningTokens: total.reasoningTokens } : {}),
    ...(model ? { model: model.length > 200 ? `${model.slice(0, 197)}...` : model } : {}),
    ...(total.costUsd !== undefined ? { costUsd: Math.round(total.costUsd * 1e9) / 1e9 } : {}),
    ...(total.unpricedTokens ? { unpricedTokens: total.unpricedTokens } : {}),
  };
  return result;
}

/** One record with `costUsd` filled from its model's price, or its tokens counted as unpriced. */
function priceRecord(record: Usage, price: Price | undefined): Usage {
  if (record.costUsd !== undefined) return record;
  const tokens = tokensOf(record);
  if (!price) {
    return tokens > 0 || record.unpricedTokens
      ? { ...record, unpricedTokens: tokens + (record.unpricedTokens ?? 0) }
      : record;
  }
  const costUsd =
    ((record.inputTokens ?? 0) * price.inputPerMTok +
      (record.outputTokens ?? 0) * price.outputPerMTok +
      (record.cacheTokens ?? 0) * (price.cachePerMTok ?? price.inputPerMTok) +
      (record.cacheWriteTokens ?? 0) * (price.cacheWritePerMTok ?? price.inputPerMTok)) /
    1_000_000;
  return { ...record, costUsd };
}

/** Whether `prices:` has a row for `model`. */
export function hasPrice(prices: ReadonlyMap<string, Price> | Record<string, Price>, model: string | undefined) {
  if (model === undefined) return false;
  return prices instanceof Map ? prices.has(model) : Object.hasOwn(prices, model);
}

/**
 * The most `tokens` tokens of `model` can cost, at its dearest rate (input, output or cached): what a model call
 * of at most that many tokens is reserved in dollars. 0 without a price.
 */
export function tokensCeilingUsd(
  prices: ReadonlyMap<string, Price> | Record<string, Price>,
  model: string,
  tokens: number,
): number {
  if (!hasPrice(prices, model)) return 0;
  const price = prices instanceof Map ? prices.get(model)! : (prices as Record<string, Price>)[model];
  const rate = Math.max(price.inputPerMTok, price.outputPerMTok, price.cachePerMTok ?? 0, price.cacheWritePerMTok ?? 0);
  // Tokens times dollars per million tokens is micro-dollars; rounded up to a whole one.
  return Math.ceil(tokens * rate - 1e-9) / 1e6;
}

/** The refusal of a model with no price while the run's `maxUsd` is set, before anything was spent on it. */
export function unpricedModelMessage(model: string): string {
  return (
    `model "${model}" has no price while the run's budget sets maxUsd: add it to the worker's teamrun.yaml as ` +
    `prices: { "${model}": { inputPerMTok, outputPerMTok } } (dollars per million tokens)`
  );
}
