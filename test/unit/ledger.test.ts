import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import type { LedgerLimits } from '../../src/plan/requests/ledger';

const T0 = 1_700_000_000_000;
const LEASE = 4_000;

function ledgerWith(limits: LedgerLimits, runs: string[] = ['run-a', 'run-b']): Ledger {
  const ledger = Ledger.create('shared', limits, T0);
  for (const workflowId of runs) ledger.register({ workflowId }, T0);
  return ledger;
}

const acquire = (ledger: Ledger, attemptId: string, now = T0, reservation = { tokens: 0, usd: 0 }) =>
  ledger.acquire({ attemptId, workflowId: attemptId.split('/')[0], reservation, leaseMs: LEASE }, now);

const settle = (ledger: Ledger, attemptId: string, tokens: number, now = T0, costUsd?: number) =>
  ledger.settle({ attemptId, usage: { inputTokens: tokens, ...(costUsd === undefined ? {} : { costUsd }) } }, now);

describe('a ledger caps attempts in flight across runs', () => {
  it('refuses a second attempt while one holds the only slot, as a wait, and admits it once the first settles', () => {
    const ledger = ledgerWith({ maxConcurrent: 1 });
    expect(acquire(ledger, 'run-a/build/1')).toMatchObject({ ok: true });
    expect(acquire(ledger, 'run-b/test/1')).toMatchObject({ ok: false, reason: 'max-concurrent', retryable: true });
    settle(ledger, 'run-a/build/1', 10);
    expect(acquire(ledger, 'run-b/test/1')).toMatchObject({ ok: true });
    expect(ledger.status(T0)).toMatchObject({ inFlight: 1, counters: { acquired: 2, settled: 1 } });
  });

  it('gives a retried acquire of the same attempt its slot back instead of a second one', () => {
    const ledger = ledgerWith({ maxConcurrent: 2 });
    acquire(ledger, 'run-a/build/1');
    expect(acquire(ledger, 'run-a/build/1', T0 + 100)).toEqual({
      ok: true,
      idempotent: true,
      expiresAt: T0 + 100 + LEASE,
    });
    expect(ledger.status(T0).inFlight).toBe(1);
  });

  it('will not let an attempt that was already settled (given up while waiting) take a slot afterwards', () => {
    const ledger = ledgerWith({ maxConcurrent: 1 });
    ledger.settle({ attemptId: 'run-a/build/1', usage: null }, T0);
    expect(acquire(ledger, 'run-a/build/1')).toMatchObject({ ok: false, reason: 'settled', retryable: false });
    expect(ledger.status(T0).inFlight).toBe(0);
  });

  it('answers a validator the same as acquire would, without taking anything', () => {
    const ledger = ledgerWith({ maxConcurrent: 1 });
    acquire(ledger, 'run-a/build/1');
    const request = {
      attemptId: 'run-b/test/1',
      workflowId: 'run-b',
      reservation: { tokens: 0, usd: 0 },
      leaseMs: LEASE,
    };
    expect(ledger.check(request, T0)).toMatchObject({ reason: 'max-concurrent', retryable: true });
    expect(ledger.check(request, T0 + LEASE)).toBeNull();
    expect(ledger.status(T0 + LEASE).inFlight).toBe(1);
  });
});

describe('a ledger charges each attempt once', () => {
  it('charges a settle retried after a crash nothing the second time', () => {
    const ledger = ledgerWith({ maxTokens: 10_000 });
    acquire(ledger, 'run-a/build/1');
    expect(settle(ledger, 'run-a/build/1', 700)).toMatchObject({ duplicate: false, charged: { tokens: 700 } });
    expect(settle(ledger, 'run-a/build/1', 700)).toMatchObject({ duplicate: true, charged: { tokens: 0, usd: 0 } });
    expect(ledger.status(T0)).toMatchObject({ used: { tokens: 700 }, counters: { settled: 1, duplicateSettles: 1 } });
  });

  it('still remembers settled attempts after continue-as-new', () => {
    const ledger = ledgerWith({ maxTokens: 10_000 });
    acquire(ledger, 'run-a/build/1');
    settle(ledger, 'run-a/build/1', 700);
    const continued = new Ledger(ledger.snapshot());
    expect(settle(continued, 'run-a/build/1', 700).duplicate).toBe(true);
    expect(continued.status(T0).used.tokens).toBe(700);
  });

  it('releases the reservation when the actual usage is charged', () => {
    const ledger = ledgerWith({ maxUsd: 1 });
    acquire(ledger, 'run-a/build/1', T0, { tokens: 0, usd: 0.4 });
    expect(ledger.status(T0)).toMatchObject({ reserved: { usd: 0.4 }, remaining: { usd: 0.6 } });
    settle(ledger, 'run-a/build/1', 100, T0, 0.1);
    expect(ledger.status(T0)).toMatchObject({ used: { usd: 0.1 }, reserved: { usd: 0 }, remaining: { usd: 0.9 } });
  });
});

describe('a spent ledger stops everyone', () => {
  it('reports every registered run to abort when a charge crosses maxTokens, once', () => {
    const ledger = ledgerWith({ maxTokens: 1_000 });
    acquire(ledger, 'run-a/build/1');
    acquire(ledger, 'run-b/test/1');
    const crossing = settle(ledger, 'run-a/build/1', 1_500);
    expect(crossing).toMatchObject({ crossed: 'max-tokens', abort: ['run-a', 'run-b'] });
    expect(settle(ledger, 'run-b/test/1', 10)).toMatchObject({ crossed: null, abort: [] });
    expect(ledger.status(T0)).toMatchObject({
      exhausted: { reason: 'max-tokens' },
      lastAbort: { reason: 'session-budget-exhausted', actor: 'ledger:shared', runs: ['run-a', 'run-b'] },
    });
  });

  it('refuses new attempts for good once spent, but only makes them wait while reservations hold the rest', () => {
    const ledger = ledgerWith({ maxUsd: 1 });
    acquire(ledger, 'run-a/build/1', T0, { tokens: 0, usd: 0.7 });
    expect(acquire(ledger, 'run-b/test/1', T0, { tokens: 0, usd: 0.5 })).toMatchObject({
      ok: false,
      reason: 'max-usd',
      retryable: true,
    });
    settle(ledger, 'run-a/build/1', 0, T0, 0.6);
    expect(acquire(ledger, 'run-b/test/1', T0, { tokens: 0, usd: 0.5 })).toMatchObject({
      ok: false,
      reason: 'max-usd',
      retryable: false,
      message: "ledger shared: max-usd 1 left cannot hold the attempt's 0.5 (used 0.6, asked 0.5)",
    });
    expect(acquire(ledger, 'run-b/test/1', T0, { tokens: 0, usd: 0.3 })).toMatchObject({ ok: true });
  });

  it('refuses with the crossed limit after a crossing even an attempt that asks for nothing', () => {
    const ledger = ledgerWith({ maxTokens: 1_000, maxConcurrent: 5 });
    acquire(ledger, 'run-a/build/1');
    settle(ledger, 'run-a/build/1', 1_001);
    expect(acquire(ledger, 'run-b/test/1')).toMatchObject({ ok: false, reason: 'max-tokens', retryable: false });
  });

  it('lets an operator abort every registered run without closing the ledger', () => {
    const ledger = ledgerWith({});
    ledger.unregister({ workflowId: 'run-b' }, T0);
    expect(ledger.abortAll({ reason: 'incident 42', actor: 'alice' }, T0)).toEqual({ ok: true, runs: ['run-a'] });
    expect(acquire(ledger, 'run-c/x/1')).toMatchObject({ ok: true });
  });
});

describe('slots are leases', () => {
  it('frees a slot nobody renews once its lease runs out, and keeps one that is renewed', () => {
    const ledger = ledgerWith({ maxConcurrent: 2 });
    acquire(ledger, 'run-a/build/1');
    acquire(ledger, 'run-b/test/1');
    expect(ledger.nextDeadline()).toBe(T0 + LEASE);
    expect(ledger.renew('run-b/test/1', T0 + LEASE - 1)).toBe(true);
    const { expired } = ledger.expire(T0 + LEASE);
    expect(expired.map((s) => s.attemptId)).toEqual(['run-a/build/1']);
    expect(ledger.status(T0 + LEASE)).toMatchObject({ inFlight: 1, counters: { expired: 1 } });
    expect(ledger.renew('run-a/build/1', T0 + LEASE + 1)).toBe(false);
  });

  it('still charges the usage a late settle reports after its slot expired, without freeing anyone else', () => {
    const ledger = ledgerWith({ maxConcurrent: 1, maxTokens: 10_000 });
    acquire(ledger, 'run-a/build/1');
    expect(acquire(ledger, 'run-b/test/1', T0 + LEASE)).toMatchObject({ ok: true });
    settle(ledger, 'run-a/build/1', 300, T0 + LEASE + 10);
    expect(ledger.status(T0 + LEASE + 10)).toMatchObject({
      inFlight: 1,
      used: { tokens: 300 },
      slots: [{ attemptId: 'run-b/test/1' }],
    });
  });
});

describe('a windowed ledger starts over every window', () => {
  it('resets usage and lifts exhaustion when the window turns', () => {
    const day = 24 * 3600_000;
    const ledger = ledgerWith({ maxTokens: 100, windowMs: day });
    acquire(ledger, 'run-a/build/1');
    settle(ledger, 'run-a/build/1', 150);
    expect(ledger.nextDeadline()).toBe(T0 + day);
    expect(ledger.expire(T0 + day + 5).windowReset).toBe(true);
    const status = ledger.status(T0 + day + 5);
    expect(status).toMatchObject({ used: { tokens: 0 }, exhausted: null, window: { startedAt: T0 + day } });
    expect(acquire(ledger, 'run-b/test/2', T0 + day + 5)).toMatchObject({ ok: true });
  });
});
