import { describe, expect, it } from 'vitest';
import { MAX_USAGE_RECORDS, UsageRecords, priceUsage } from '../../src/activities/pricing';
import { Budget, usageTokens } from '../../src/team/budget';

const T0 = 1_700_000_000_000;
/** $10 per million input and output tokens. */
const prices = { 'ten-dollar': { inputPerMTok: 10, outputPerMTok: 10 } };

function settle(limits: Parameters<typeof Budget.create>[0], usage: Parameters<Budget['settle']>[1]) {
  const budget = Budget.create(limits);
  const r = budget.reserve(undefined, 1);
  if (!r.ok) throw new Error('expected a reservation');
  return { charge: budget.settle(r.reservation, usage), used: budget.view(T0, T0).used };
}

describe('usage priced per record', () => {
  it('prices each record with its own model: one cheap line does not turn pricing off for the rest', () => {
    const usage = priceUsage(
      [
        { inputTokens: 1_000_000, model: 'ten-dollar' },
        { inputTokens: 1, costUsd: 0.0001 },
      ],
      prices,
    );
    expect(usage).toEqual({ inputTokens: 1_000_001, model: 'ten-dollar', costUsd: 10.0001 });
    expect(settle({ maxUsd: 1 }, usage)).toEqual({
      charge: { ok: true, tokens: 1_000_001, usd: 10.0001 },
      used: expect.objectContaining({ usd: 10.0001 }),
    });
  });

  it('counts tokens of a record with neither a price nor a cost as unpriced, whatever the other records cost', () => {
    const usage = priceUsage(
      [
        { inputTokens: 1_000_000, model: 'unknown-model' },
        { inputTokens: 1, costUsd: 0.0001 },
      ],
      prices,
    );
    expect(usage).toEqual({
      inputTokens: 1_000_001,
      model: 'unknown-model',
      costUsd: 0.0001,
      unpricedTokens: 1_000_000,
    });
    // The last model does not win, and the cost of one record does not vouch for another.
    expect(settle({ maxUsd: 1 }, usage).charge).toEqual({ ok: false, reason: 'unpriced-usage' });
    // Without a dollar limit unpriced usage is recorded, not fatal.
    expect(settle({ maxTokens: 10_000_000 }, usage).charge).toEqual({ ok: true, tokens: 1_000_001, usd: 0.0001 });
  });

  it('keeps a record that reports its own cost at that cost, even for a priced model', () => {
    expect(priceUsage({ inputTokens: 1_000_000, model: 'ten-dollar', costUsd: 2 }, prices)).toEqual({
      inputTokens: 1_000_000,
      model: 'ten-dollar',
      costUsd: 2,
    });
  });

  it('looks a model up as the table\'s own entry only: "constructor" and "__proto__" have no price', () => {
    for (const model of ['constructor', '__proto__', 'toString']) {
      expect(priceUsage({ inputTokens: 5, model }, prices)).toEqual({ inputTokens: 5, model, unpricedTokens: 5 });
    }
  });

  it('names every model the records used, not only the last', () => {
    expect(
      priceUsage(
        [
          { outputTokens: 1, model: 'a' },
          { outputTokens: 1, model: 'b' },
          { outputTokens: 1, model: 'a' },
        ],
        {},
      )?.model,
    ).toBe('a, b');
  });

  it('keeps memory bounded: records of one model merge, and models past the bound are counted unpriced', () => {
    const records = new UsageRecords();
    for (let i = 0; i < 10_000; i++) records.add({ inputTokens: 1, model: 'ten-dollar' });
    expect(records.records).toEqual([{ inputTokens: 10_000, model: 'ten-dollar' }]);
    for (let i = 0; i < MAX_USAGE_RECORDS + 10; i++) records.add({ outputTokens: 2, model: `m${i}` });
    expect(records.records).toHaveLength(MAX_USAGE_RECORDS + 1);
    // 255 models on their own, the rest merged into one unpriced record: every token still counted.
    expect(priceUsage(records.records, prices)).toMatchObject({
      inputTokens: 10_000,
      costUsd: 0.1,
      unpricedTokens: 2 * (MAX_USAGE_RECORDS + 10),
    });
  });
});

describe('prompt-cache rates', () => {
  it('prices cache reads and writes at their own rates, each defaulting to the input rate; reasoning is output', () => {
    const claude = { inputPerMTok: 3, outputPerMTok: 15, cachePerMTok: 0.3, cacheWritePerMTok: 3.75 };
    const record = {
      model: 'claude',
      inputTokens: 100,
      outputTokens: 20,
      cacheTokens: 1_000,
      cacheWriteTokens: 200,
      reasoningTokens: 5,
    };
    // (100*3 + 20*15 + 1000*0.3 + 200*3.75) / 1e6
    expect(priceUsage(record, { claude })).toMatchObject({
      costUsd: 0.00165,
      cacheWriteTokens: 200,
      reasoningTokens: 5,
    });
    // No cache rates: every cached token at the input rate, (100 + 1000 + 200)*3 + 20*15.
    expect(priceUsage(record, { claude: { inputPerMTok: 3, outputPerMTok: 15 } })?.costUsd).toBe(0.0042);
    // The run counts cache writes among the tokens it charges.
    expect(usageTokens(record)).toBe(1_320);
  });
});
