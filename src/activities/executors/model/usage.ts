import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import type { Usage } from '../../../plan/schema';

/**
 * A provider's usage, normalised as every provider's package reports it (LanguageModelV3Usage): input not
 * from a cache, output (reasoning included), cache read and cache write, each priced at its own rate. Undefined
 * when the answer carried no usage at all.
 */
export function normalUsage(usage: LanguageModelV3Usage | undefined, model: string): Usage | undefined {
  if (!usage) return undefined;
  const { inputTokens: input, outputTokens: output } = usage;
  if (input.total === undefined && input.noCache === undefined && output.total === undefined) return undefined;
  const read = count(input.cacheRead);
  const write = count(input.cacheWrite);
  const fresh = input.noCache !== undefined ? count(input.noCache) : Math.max(0, count(input.total) - read - write);
  const reasoning = count(output.reasoning);
  return {
    model,
    inputTokens: fresh,
    outputTokens: output.total !== undefined ? count(output.total) : count(output.text) + reasoning,
    cacheTokens: read,
    ...(write ? { cacheWriteTokens: write } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}

/** A count from outside: a whole, non-negative, finite number, or 0. */
const count = (n: number | undefined) => (Number.isFinite(n) && n! > 0 ? Math.min(Math.floor(n!), 1e12) : 0);
