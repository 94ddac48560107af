import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import { LEASE, T0, ledgerWith } from '../helpers/ledger-rules';

const acquire = (ledger: Ledger, attemptId: string, reservation = { tokens: 100, usd: 0.1 }, now = T0) =>
  ledger.acquire({ attemptId, workflowId: attemptId.split('/')[0], reservation, leaseMs: LEASE }, now);

describe('a ledger fails closed on usage it cannot price or count', () => {
  it('stops admitting attempts of every run once one run charges unpriced usage while maxUsd is set', () => {
    const ledger = ledgerWith({ maxUsd: 5 });
    acquire(ledger, 'run-a/chat/1');
    acquire(ledger, 'run-b/other/1');
    const verdict = ledger.settle({ attemptId: 'run-a/chat/1', usage: { inputTokens: 50, model: 'mystery' } }, T0);
    // Nothing is aborted: the attempt in flight settles, as a run's own budget lets it.
    expect(verdict).toMatchObject({ crossed: 'unpriced-usage', abort: [] });
    expect(acquire(ledger, 'run-b/next/1')).toMatchObject({ ok: false, reason: 'unpriced-usage', retryable: false });
    expect(ledger.status(T0)).toMatchObject({ state: 'exhausted', exhausted: { reason: 'unpriced-usage' } });
  });

  it('counts unpriced usage as tokens only when the ledger has no dollar limit', () => {
    const ledger = ledgerWith({ maxTokens: 1_000 });
    acquire(ledger, 'run-a/chat/1');
    expect(ledger.settle({ attemptId: 'run-a/chat/1', usage: { inputTokens: 50, model: 'm' } }, T0).crossed).toBeNull();
    expect(acquire(ledger, 'run-b/next/1')).toMatchObject({ ok: true });
  });

  it("holds a lost attempt's reservation and makes every run wait until an operator records its usage", () => {
    const ledger = ledgerWith({ maxTokens: 10_000, maxUsd: 5 });
    acquire(ledger, 'run-a/long/1', { tokens: 400, usd: 1 });
    const lost = ledger.settle(
      { attemptId: 'run-a/long/1', usage: null, lost: { reservation: { tokens: 400, usd: 1 }, workflowId: 'run-a' } },
      T0,
    );
    expect(lost).toMatchObject({ charged: { tokens: 0, usd: 0 }, crossed: null });
    const waiting = acquire(ledger, 'run-b/next/1');
    expect(waiting).toMatchObject({ ok: false, reason: 'recovery-required', retryable: true });
    expect(ledger.status(T0)).toMatchObject({
      state: 'recovery_required',
      inFlight: 0,
      recovery: { count: 1, attempts: ['run-a/long/1'], runs: ['run-a'], reservation: { tokens: 400, usd: 1 } },
      remaining: { tokens: 9_600, usd: 4 },
    });

    const resolved = ledger.resolve({ usage: { inputTokens: 250, costUsd: 0.5 }, actor: 'alice' }, T0 + 10);
    expect(resolved?.verdict.resolution).toMatchObject({ actor: 'alice', count: 1, how: 'usage' });
    const status = ledger.status(T0 + 10);
    expect(status).toMatchObject({ state: 'open', recovery: null, used: { tokens: 250, usd: 0.5 } });
    expect(status.lastResolution).toMatchObject({ actor: 'alice', charged: { tokens: 250, usd: 0.5 } });
    expect(status.recentEvents.map((e) => e.type)).toContain('ledger:recovery-resolved');
    expect(acquire(ledger, 'run-b/next/1', undefined, T0 + 10)).toMatchObject({ ok: true });
  });

  it('charges the held reservations when an operator releases the lost attempts instead', () => {
    const ledger = ledgerWith({ maxTokens: 10_000 });
    for (const id of ['run-a/x/1', 'run-b/y/1']) {
      acquire(ledger, id, { tokens: 300, usd: 0 });
      ledger.settle(
        { attemptId: id, usage: null, lost: { reservation: { tokens: 300, usd: 0 }, workflowId: id.split('/')[0] } },
        T0,
      );
    }
    expect(ledger.status(T0).recovery).toMatchObject({ count: 2, runs: ['run-a', 'run-b'] });
    expect(ledger.resolve({ release: true, actor: 'bob' }, T0)?.verdict.resolution).toMatchObject({
      how: 'release',
      count: 2,
      charged: { tokens: 600, usd: 0 },
    });
    expect(ledger.status(T0).used.tokens).toBe(600);
    expect(ledger.resolve({ release: true, actor: 'bob' }, T0)).toBeNull();
  });

  it('charges a lost attempt its reservation and waits for nobody when the ledger caps only concurrency', () => {
    const ledger = ledgerWith({ maxConcurrent: 1 });
    acquire(ledger, 'run-a/x/1', { tokens: 300, usd: 0.2 });
    const lost = { reservation: { tokens: 300, usd: 0.2 }, workflowId: 'run-a' };
    expect(ledger.settle({ attemptId: 'run-a/x/1', usage: null, lost }, T0)).toMatchObject({
      charged: { tokens: 300, usd: 0.2 },
    });
    expect(ledger.status(T0)).toMatchObject({ state: 'open', recovery: null, used: { tokens: 300 } });
    expect(acquire(ledger, 'run-b/y/1')).toMatchObject({ ok: true });
  });

  it('keeps requiring recovery across a window reset: the lost usage is still unknown', () => {
    const ledger = ledgerWith({ maxTokens: 10_000, windowMs: 60_000 });
    acquire(ledger, 'run-a/x/1');
    ledger.settle(
      { attemptId: 'run-a/x/1', usage: null, lost: { reservation: { tokens: 100, usd: 0 }, workflowId: 'run-a' } },
      T0,
    );
    expect(acquire(ledger, 'run-b/y/1', undefined, T0 + 120_000)).toMatchObject({ reason: 'recovery-required' });
  });
});

describe("a ledger's limits only tighten", () => {
  it('takes tighter limits and refuses looser ones, naming each limit, unless an operator forces them', () => {
    const ledger = ledgerWith({ maxConcurrent: 4, maxUsd: 10, windowMs: 3_600_000 });
    expect(ledger.checkConfigure({ limits: { maxConcurrent: 2, maxUsd: 5, windowMs: 7_200_000 } })).toBeNull();
    expect(ledger.checkConfigure({ limits: { maxConcurrent: 4, maxUsd: 20, windowMs: 3_600_000 } })?.message).toMatch(
      /loosen maxUsd 10 -> 20; limits only tighten/,
    );
    expect(ledger.checkConfigure({ limits: { maxUsd: 10, windowMs: 60_000 } })?.message).toMatch(
      /maxConcurrent 4 -> none, windowMs 3600000 ms -> 60000 ms/,
    );
    expect(ledger.checkConfigure({ limits: {}, force: true })).toMatchObject({
      code: 'loosening_refused',
      message: expect.stringMatching(/force needs the actor/),
    });
    expect(ledger.checkConfigure({ limits: {}, force: true, actor: 'carol' })).toBeNull();

    ledger.configure({ limits: { maxUsd: 50 }, force: true, actor: 'carol' }, T0);
    expect(ledger.limits).toEqual({ maxUsd: 50 });
    const configured = ledger
      .status(T0)
      .recentEvents.filter((e) => e.type === 'ledger:configured')
      .at(-1);
    expect(configured).toMatchObject({ forcedBy: 'carol' });
    expect(configured?.loosened).toEqual(['maxConcurrent 4 -> none', 'maxUsd 10 -> 50']);
  });
});
