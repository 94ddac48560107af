import type { Price } from '../config/config';
import type { Usage } from '../plan/schema';

/**
 * Fills `costUsd` from the price table (per million tokens) when the executor did not report it.
 * A model with no price keeps `costUsd` empty: the run decides whether that is allowed.
 */
export function priceUsage(usage: Usage | undefined, prices: Record<string, Price>): Usage | undefined {
  if (!usage || usage.costUsd !== undefined || usage.model === undefined) return usage;
  const price = prices[usage.model];
  if (!price) return usage;
  const costUsd =
    ((usage.inputTokens ?? 0) * price.inputPerMTok +
      (usage.outputTokens ?? 0) * price.outputPerMTok +
      (usage.cacheTokens ?? 0) * (price.cachePerMTok ?? price.inputPerMTok)) /
    1_000_000;
  return { ...usage, costUsd: Math.round(costUsd * 1e9) / 1e9 };
}
