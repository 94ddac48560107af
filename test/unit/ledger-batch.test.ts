import { describe, expect, it } from 'vitest';
import { applyBatch, batchRefusals, type BatchItem, type BatchItemVerdict } from '../../src/ledger/batch';
import { BATCHES_IN_FLIGHT, LedgerBatcher } from '../../src/ledger/batcher';
import { LEASE, T0, ledgerWith } from '../helpers/ledger-rules';

const acquire = (attemptId: string, tokens = 0): BatchItem => ({
  call: 'acquire',
  request: { attemptId, workflowId: attemptId.split('/')[0], reservation: { tokens, usd: 0 }, leaseMs: LEASE },
});
const settle = (attemptId: string, outputTokens: number): BatchItem => ({
  call: 'settle',
  request: { attemptId, usage: { outputTokens } },
});
const extend = (attemptId: string, extensionId: string, tokens: number): BatchItem => ({
  call: 'extend',
  request: { attemptId, extensionId, extension: { tokens, usd: 0 } },
});

describe("a ledger's batch decides each item as its own update would, in order", () => {
  it('admits while slots last, refuses the rest as a wait, and a settlement in the same batch frees a slot', () => {
    const ledger = ledgerWith({ maxConcurrent: 2, maxTokens: 100 });
    const first = applyBatch(ledger, { items: [acquire('run-a/t1/1', 10), acquire('run-b/t1/1', 10)] }, T0, () => {});
    expect(first.items.map((v) => v.ok)).toEqual([true, true]);
    // Every item of the next would wait: the validator refuses it whole, each with its own reason.
    const waiting = batchRefusals(ledger, { items: [acquire('run-a/t2/1'), extend('run-a/t1/1', 'e1', 90)] }, T0);
    expect(waiting?.map((v) => (v.ok ? 'ok' : v.reason))).toEqual(['max-concurrent', 'max-tokens']);
    // A settlement applies, so a batch holding one goes through, and frees the slot the acquire after it takes.
    const batch = { items: [acquire('run-a/t2/1'), settle('run-a/t1/1', 5), acquire('run-b/t2/1')] };
    expect(batchRefusals(ledger, batch, T0)).toBeNull();
    const verdicts = applyBatch(ledger, batch, T0, () => {}).items as Array<BatchItemVerdict & { reason?: string }>;
    expect(verdicts.map((v) => (v.ok ? 'ok' : v.reason))).toEqual(['max-concurrent', 'ok', 'ok']);
    expect(ledger.status(T0)).toMatchObject({ inFlight: 2, used: { tokens: 5 } });
  });

  it('charges a settlement repeated in a later batch once, and grows a slot once per extension id', () => {
    const ledger = ledgerWith({ maxTokens: 100 });
    applyBatch(ledger, { items: [acquire('run-a/t1/1', 10)] }, T0, () => {});
    const twice = { items: [extend('run-a/t1/1', 'e1', 20), extend('run-a/t1/1', 'e1', 20)] };
    expect(applyBatch(ledger, twice, T0, () => {}).items).toMatchObject([
      { ok: true, reservation: { tokens: 30 } },
      { ok: true, idempotent: true, reservation: { tokens: 30 } },
    ]);
    applyBatch(ledger, { items: [settle('run-a/t1/1', 25)] }, T0, () => {});
    expect(applyBatch(ledger, { items: [settle('run-a/t1/1', 25)] }, T0, () => {}).items).toMatchObject([
      { ok: true, duplicate: true },
    ]);
    expect(ledger.status(T0).used.tokens).toBe(25);
  });

  it("sends a crossing's aborts once, however many settlements of the batch crossed", () => {
    const ledger = ledgerWith({ maxTokens: 10 });
    applyBatch(ledger, { items: [acquire('run-a/t1/1'), acquire('run-b/t1/1')] }, T0, () => {});
    const aborted: string[][] = [];
    applyBatch(ledger, { items: [settle('run-a/t1/1', 20), settle('run-b/t1/1', 20)] }, T0, (runs) =>
      aborted.push(runs),
    );
    expect(aborted).toHaveLength(1);
    expect(new Set(aborted[0]).size).toBe(aborted[0].length);
  });
});

describe("a worker's batcher keeps at most BATCHES_IN_FLIGHT batches in flight per ledger", () => {
  it('sends what arrives meanwhile together in the next batch, and answers each caller its own item', async () => {
    const sent: BatchItem[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const batcher = new LedgerBatcher({
      batch: async (_ledger, items) => {
        sent.push(items);
        await gate;
        return { items: items.map((item) => ({ ok: true, expiresAt: Number(item.request.attemptId.slice(1)) })) };
      },
      single: () => Promise.reject(new Error('not asked item by item')),
    });
    const asked = Array.from({ length: BATCHES_IN_FLIGHT + 3 }, (_, i) => batcher.ask('shared', acquire(`a${i + 1}`)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent.map((b) => b.length)).toEqual(new Array(BATCHES_IN_FLIGHT).fill(1));
    release();
    const answers = await Promise.all(asked);
    expect(sent.map((b) => b.length)).toEqual([...new Array(BATCHES_IN_FLIGHT).fill(1), 3]);
    expect(answers.map((a) => (a as { expiresAt: number }).expiresAt)).toEqual(asked.map((_, i) => i + 1));
  });

  it('fails the items of a batch the ledger never answers, aborts its call, and gives its place to the next', async () => {
    const signals: AbortSignal[] = [];
    let calls = 0;
    const batcher = new LedgerBatcher(
      {
        batch: (_ledger, items, signal) => {
          signals.push(signal);
          calls += 1;
          // The first BATCHES_IN_FLIGHT batches are never answered (an update the server lost); later ones are.
          if (calls <= BATCHES_IN_FLIGHT) return new Promise(() => {});
          return Promise.resolve({ items: items.map(() => ({ ok: true, expiresAt: 1 })) });
        },
        single: () => Promise.reject(new Error('not asked item by item')),
      },
      50,
    );
    const lost = Array.from({ length: BATCHES_IN_FLIGHT }, (_, i) => batcher.ask('shared', acquire(`l${i}`)));
    const later = batcher.ask('shared', acquire('a-later'));
    for (const ask of lost) await expect(ask).rejects.toThrow(/ledger shared did not answer a batch of 1 in 50 ms/);
    await expect(later).resolves.toEqual({ ok: true, expiresAt: 1 });
    expect(signals.slice(0, BATCHES_IN_FLIGHT).every((s) => s.aborted)).toBe(true);
    expect(signals[BATCHES_IN_FLIGHT].aborted).toBe(false);
  });
});
