import type { Price } from '../config/config';
import type { Usage } from '../plan/schema';
/** Distinct (model, has-cost) records one attempt keeps; records past it are merged into one unpriced record. */
export declare const MAX_USAGE_RECORDS = 256;
/**
 * The usage records of one attempt, each to be priced on its own. Records of the same model,
 * both with or both without a reported cost, are merged (pricing is linear, so this changes
 * nothing); memory stays bounded however many lines a task prints.
 */
export declare class UsageRecords {
    private readonly byKind;
    private overflow;
    add(record: Usage): void;
    get records(): Usage[];
    get empty(): boolean;
}
/**
 * What an attempt reports: every record priced on its own (its own `costUsd` when it has one,
 * else its model's price, per million tokens), summed. Tokens of a record with neither a cost
 * nor a priced model are counted in `unpricedTokens`: the run decides whether that is allowed.
 */
export declare function priceUsage(usage: Usage | Usage[] | undefined, prices: ReadonlyMap<string, Price> | Record<string, Price>): Usage | undefined;
