import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import { LEASE, T0, ledgerWith } from '../helpers/ledger-rules';

const acquire = (ledger: Ledger, attemptId: string, tokens = 0, usd = 0) =>
  ledger.acquire({ attemptId, workflowId: attemptId.split('/')[0], reservation: { tokens, usd }, leaseMs: LEASE }, T0);

const extend = (ledger: Ledger, attemptId: string, extensionId: string, tokens: number, usd = 0, now = T0) =>
  ledger.extend({ attemptId, extensionId, extension: { tokens, usd } }, now);

describe("a ledger grants a running attempt's extension only within its limits", () => {
  it('grows the slot while used and every reservation fit maxTokens, then refuses what would not fit', () => {
    const ledger = ledgerWith({ maxTokens: 100 });
    acquire(ledger, 'run-a/build/1', 10);
    acquire(ledger, 'run-b/test/1', 20);
    ledger.settle({ attemptId: 'run-b/test/1', usage: { outputTokens: 30 } }, T0);
    expect(extend(ledger, 'run-a/build/1', 'x1', 60)).toEqual({ ok: true, reservation: { tokens: 70, usd: 0 } });
    expect(ledger.status(T0)).toMatchObject({ reserved: { tokens: 70 }, remaining: { tokens: 0 } });
    expect(extend(ledger, 'run-a/build/1', 'x2', 1)).toMatchObject({ ok: false, reason: 'max-tokens' });
    // Settlement releases the slot with its extension and charges what was used.
    ledger.settle({ attemptId: 'run-a/build/1', usage: { outputTokens: 65 } }, T0);
    expect(ledger.status(T0)).toMatchObject({ used: { tokens: 95 }, reserved: { tokens: 0 }, inFlight: 0 });
  });

  it('refuses beyond maxUsd and grows a ledger without limits freely', () => {
    const ledger = ledgerWith({ maxUsd: 1 });
    acquire(ledger, 'run-a/build/1', 0, 0.5);
    expect(extend(ledger, 'run-a/build/1', 'x1', 1_000, 0.5)).toMatchObject({ ok: true });
    expect(extend(ledger, 'run-a/build/1', 'x2', 0, 0.01)).toMatchObject({ ok: false, reason: 'max-usd' });
    const open = ledgerWith({ maxConcurrent: 2 });
    acquire(open, 'run-a/build/1');
    expect(extend(open, 'run-a/build/1', 'x1', 1e9, 1e6)).toMatchObject({ ok: true });
  });

  it('grows the slot once for an extension asked twice (a retry), across continue-as-new too', () => {
    const ledger = ledgerWith({ maxTokens: 100 });
    acquire(ledger, 'run-a/build/1', 10);
    extend(ledger, 'run-a/build/1', 'x1', 30);
    const continued = new Ledger(ledger.snapshot());
    expect(extend(continued, 'run-a/build/1', 'x1', 30)).toEqual({
      ok: true,
      idempotent: true,
      reservation: { tokens: 40, usd: 0 },
    });
    expect(continued.status(T0).reserved.tokens).toBe(40);
    expect(extend(continued, 'run-a/build/1', 'x2', 60)).toMatchObject({ ok: true, reservation: { tokens: 100 } });
  });

  it('refuses while the ledger is exhausted or requires recovery, and for an attempt that holds no slot', () => {
    const spent = ledgerWith({ maxTokens: 100 });
    acquire(spent, 'run-a/build/1');
    acquire(spent, 'run-b/test/1');
    spent.settle({ attemptId: 'run-b/test/1', usage: { outputTokens: 101 } }, T0);
    expect(extend(spent, 'run-a/build/1', 'x1', 0)).toMatchObject({ ok: false, reason: 'max-tokens' });
    expect(
      spent.checkExtend({ attemptId: 'run-a/build/1', extensionId: 'x1', extension: { tokens: 0, usd: 0 } }, T0),
    ).toMatchObject({ reason: 'max-tokens' });

    const lost = ledgerWith({ maxTokens: 1_000 });
    acquire(lost, 'run-a/build/1');
    acquire(lost, 'run-b/test/1', 5);
    lost.settle(
      { attemptId: 'run-b/test/1', usage: null, lost: { reservation: { tokens: 5, usd: 0 }, workflowId: 'run-b' } },
      T0,
    );
    expect(lost.status(T0).state).toBe('recovery_required');
    const refused = extend(lost, 'run-a/build/1', 'x1', 1);
    expect(refused).toMatchObject({ ok: false, reason: 'recovery-required' });
    expect(refused.ok === false && refused.message).toContain('teamrun ledger resolve shared');
    lost.resolve({ release: true, actor: 'ops' }, T0);
    expect(extend(lost, 'run-a/build/1', 'x1', 1)).toMatchObject({ ok: true });

    expect(extend(lost, 'run-b/test/1', 'x2', 1)).toMatchObject({ ok: false, reason: 'no-slot' });
    expect(extend(lost, 'run-a/build/1', 'x3', 1, 0, T0 + LEASE)).toMatchObject({ ok: false, reason: 'no-slot' });
  });

  it("holds a lost attempt's extensions too until an operator resolves it, whatever its run told", () => {
    const ledger = ledgerWith({ maxTokens: 1_000 });
    acquire(ledger, 'run-a/build/1', 10);
    extend(ledger, 'run-a/build/1', 'x1', 90);
    const lost = { reservation: { tokens: 10, usd: 0 }, workflowId: 'run-a' };
    ledger.settle({ attemptId: 'run-a/build/1', usage: null, lost }, T0);
    expect(ledger.status(T0)).toMatchObject({
      state: 'recovery_required',
      recovery: { reservation: { tokens: 100 } },
      remaining: { tokens: 900 },
    });
  });
});
