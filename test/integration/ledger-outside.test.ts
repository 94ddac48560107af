import { describe, expect, it } from 'vitest';
import { ledgerStatus } from '../../src/ledger/client';
import { updateLedger } from '../../src/ledger/handle';
import * as lm from '../../src/ledger/messages';
import { outsideLedger, OutsideLedgerRefused, type OutsideReservation } from '../../src/ledger/outside';
import { testClient, waitFor } from '../helpers/env';
import { ledgerForTest, updateCodeOf, workerForSuite } from '../helpers/scenario';

/**
 * `teamrun/ledger`: work outside a team run reserves from a shared ledger and settles to it, as one of the ledger's
 * operators (there is no worker to vouch for it), under the admission and settlement rules a run's attempts follow.
 */
describe('spending from a shared ledger outside a team run (shared dev server)', () => {
  const worker = workerForSuite();
  const operators = { actor: 'ops-alice', operators: ['ops-alice'] };

  const granted = (verdict: Awaited<ReturnType<ReturnType<typeof outsideLedger>['reserve']>>): OutsideReservation => {
    if (!verdict.granted) throw new Error(`refused: ${verdict.message}`);
    return verdict.reservation;
  };

  it("reserves and settles as an operator: the ledger's used and reserved figures move by exactly that", async () => {
    const client = await testClient();
    const id = await ledgerForTest('outside', { maxTokens: 10_000, maxUsd: 5 }, worker.taskQueue, undefined, operators);
    const ledger = outsideLedger(client, id, { actor: 'ops-alice' });

    const hold = granted(await ledger.reserve({ workId: 'nightly-summary', tokens: 2_000, usd: 0.5 }));
    expect(await ledgerStatus(client, id)).toMatchObject({
      inFlight: 1,
      reserved: { tokens: 2_000, usd: 0.5 },
      used: { tokens: 0, usd: 0 },
      slots: [{ attemptId: 'outside:ops-alice/nightly-summary', workflowId: 'outside:ops-alice' }],
    });
    // The same work asked again gets the same reservation, not a second one.
    granted(await ledger.reserve({ workId: 'nightly-summary', tokens: 2_000, usd: 0.5 }));
    expect((await ledgerStatus(client, id)).inFlight).toBe(1);

    const verdict = await hold.settle({ inputTokens: 1_200, outputTokens: 34, costUsd: 0.0125 });
    expect(verdict).toMatchObject({ ok: true, duplicate: false, charged: { tokens: 1_234, usd: 0.0125 } });
    expect(await hold.settle({ inputTokens: 1_200, outputTokens: 34, costUsd: 0.0125 })).toMatchObject({
      duplicate: true,
    });
    const after = await ledgerStatus(client, id);
    expect(after).toMatchObject({
      inFlight: 0,
      reserved: { tokens: 0, usd: 0 },
      used: { tokens: 1_234, usd: 0.0125, attempts: 1 },
      remaining: { tokens: 10_000 - 1_234 },
      counters: { acquired: 1, settled: 1, duplicateSettles: 1 },
    });

    // More than the ledger can ever hold is refused for good, as a run's attempt would be.
    expect(await ledger.reserve({ tokens: 20_000 })).toMatchObject({
      granted: false,
      reason: 'max-tokens',
      retryable: false,
    });
  });

  it('refuses a non-operator, and everyone on a ledger without operators, recording nothing', async () => {
    const client = await testClient();
    const id = await ledgerForTest('outside-deny', { maxTokens: 10_000 }, worker.taskQueue, undefined, operators);
    const before = await ledgerStatus(client, id);
    const refusal = await outsideLedger(client, id, { actor: 'mallory' })
      .reserve({ tokens: 1 })
      .catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(OutsideLedgerRefused);
    expect(refusal).toMatchObject({ code: 'forbidden', message: expect.stringContaining('mallory') });
    // A settle of an operator's reservation, sent by someone else, is refused too and charges nothing.
    const hold = granted(await outsideLedger(client, id, { actor: 'ops-alice' }).reserve({ tokens: 100 }));
    const forged = { attemptId: hold.attemptId, usage: { inputTokens: 1e9 }, actor: 'mallory' };
    expect(await updateCodeOf(updateLedger(client, id, lm.ledgerSettleUpdate, forged))).toBe('forbidden');
    const after = await ledgerStatus(client, id);
    expect(after.used).toMatchObject({ tokens: before.used.tokens, usd: before.used.usd });
    expect(after.counters).toMatchObject({ acquired: 1, settled: 0 });

    const open = await ledgerForTest('outside-open', {}, worker.taskQueue);
    await expect(outsideLedger(client, open, { actor: 'anyone' }).reserve({ tokens: 1 })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(outsideLedger(client, `${open}-missing`, { actor: 'ops' }).reserve()).rejects.toMatchObject({
      code: 'ledger_not_found',
    });
  });

  it("charges unknown usage as a run's lost attempt: settled lost, or expired unsettled, the ledger requires recovery", async () => {
    const client = await testClient();
    const id = await ledgerForTest('outside-lost', { maxTokens: 10_000 }, worker.taskQueue, undefined, operators);
    const ledger = outsideLedger(client, id, { actor: 'ops-alice', leaseMs: 1_000 });
    // Its own lease is long: it is settled lost by its holder, not by its expiry.
    const steady = outsideLedger(client, id, { actor: 'ops-alice' });
    const crashed = granted(await steady.reserve({ workId: 'crashed', tokens: 700 }));
    const vanished = granted(await ledger.reserve({ workId: 'vanished', tokens: 300 }));
    expect(vanished.expiresAt).toBeGreaterThan(0);
    expect(await crashed.settleLost()).toMatchObject({ duplicate: false, charged: { tokens: 0 } });
    // The holder of the other died without a word: its reservation expires and the ledger settles it lost itself.
    const status = await waitFor('the vanished reservation to expire', async () => {
      const s = await ledgerStatus(client, id);
      return s.inFlight === 0 && s.recovery?.count === 2 ? s : null;
    });
    expect(status).toMatchObject({
      state: 'recovery_required',
      recovery: {
        attempts: ['outside:ops-alice/crashed', 'outside:ops-alice/vanished'],
        runs: ['outside:ops-alice'],
        reservation: { tokens: 1_000 },
      },
      counters: { expired: 1 },
    });
    // Nothing more is granted until an operator resolves it.
    expect(await ledger.reserve({ tokens: 1 })).toMatchObject({ granted: false, reason: 'recovery-required' });
  });
});
