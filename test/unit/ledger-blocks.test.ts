import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import {
  blockSettlement,
  enterBlock,
  freeOf,
  growsAhead,
  hasRoom,
  leaveBlock,
  newBlockBook,
  nextGrowth,
} from '../../src/ledger/block-book';
import { RegisterRequestSchema, parseLedgerRequest, type LedgerLimits } from '../../src/plan/requests/ledger';
import { refusedBlockField } from '../../src/ledger/activities';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { refuseOthersBlock } from '../../src/ledger/doors';

const T0 = 1_700_000_000_000;
const LEASE = 4_000;

function ledgerWith(limits: LedgerLimits): Ledger {
  const ledger = Ledger.create('shared', limits, T0);
  for (const workflowId of ['run-a', 'run-b']) ledger.register({ workflowId }, T0);
  return ledger;
}

const block = (ledger: Ledger, attemptId: string, slots: number, tokens: number, now = T0) =>
  ledger.acquire(
    { attemptId, workflowId: attemptId.split('/')[0], reservation: { tokens, usd: 0 }, leaseMs: LEASE, slots },
    now,
  );

const one = (ledger: Ledger, attemptId: string, tokens = 0) =>
  ledger.acquire(
    { attemptId, workflowId: attemptId.split('/')[0], reservation: { tokens, usd: 0 }, leaseMs: LEASE },
    T0,
  );

describe("a run's block of a ledger's slots (budget.ledgerBlocks)", () => {
  it('counts every slot of a block against maxConcurrent, granting as many as are free with the reservation cut', () => {
    const ledger = ledgerWith({ maxConcurrent: 5, maxTokens: 10_000 });
    expect(one(ledger, 'run-b/x/1')).toMatchObject({ ok: true });
    // Ten asked, four free: four granted, and 4/10 of what the ten would hold.
    expect(block(ledger, 'run-a/block/1', 10, 1_000)).toEqual({
      ok: true,
      expiresAt: T0 + LEASE,
      block: { slots: 4, reservation: { tokens: 400, usd: 0 } },
    });
    expect(ledger.status(T0)).toMatchObject({ inFlight: 5, reserved: { tokens: 400 }, remaining: { concurrent: 0 } });
    expect(one(ledger, 'run-b/y/1')).toMatchObject({ ok: false, reason: 'max-concurrent', retryable: true });
    expect(block(ledger, 'run-b/block/2', 3, 0)).toMatchObject({ ok: false, reason: 'max-concurrent' });
    // A retried acquire gets the same block back, not a second one.
    expect(block(ledger, 'run-a/block/1', 10, 1_000, T0 + 100)).toMatchObject({
      ok: true,
      idempotent: true,
      block: { slots: 4, reservation: { tokens: 400, usd: 0 } },
    });
  });

  it('grants a block as many slots as the tokens left hold, its reservation cut to match', () => {
    const ledger = ledgerWith({ maxTokens: 1_000 });
    ledger.acquire(
      { attemptId: 'run-b/x/1', workflowId: 'run-b', reservation: { tokens: 0, usd: 0 }, leaseMs: LEASE },
      T0,
    );
    ledger.settle({ attemptId: 'run-b/x/1', usage: { inputTokens: 550, costUsd: 0 } }, T0);
    // Ten slots of 100 each asked, 450 left: four granted, holding 400.
    expect(block(ledger, 'run-a/block/1', 10, 1_000)).toMatchObject({
      ok: true,
      block: { slots: 4, reservation: { tokens: 400, usd: 0 } },
    });
    // Nothing left for one more of 100: refused as a wait, as one attempt's slot would be.
    expect(block(ledger, 'run-a/block/2', 2, 200)).toMatchObject({ ok: false, reason: 'max-tokens', retryable: true });
  });

  it('holds what its attempts may spend against maxTokens, and charges their usage and count when it settles', () => {
    const ledger = ledgerWith({ maxTokens: 1_000 });
    expect(block(ledger, 'run-a/block/1', 8, 800)).toMatchObject({ ok: true, block: { slots: 8 } });
    // 800 held by the block: an attempt asking 300 waits for it.
    expect(one(ledger, 'run-b/x/1', 300)).toMatchObject({ ok: false, reason: 'max-tokens', retryable: true });
    expect(ledger.status(T0).used.attempts).toBe(0);
    ledger.settle({ attemptId: 'run-a/block/1', usage: { inputTokens: 120, costUsd: 0 }, attempts: 12 }, T0 + 10);
    expect(ledger.status(T0 + 10)).toMatchObject({
      inFlight: 0,
      used: { tokens: 120, attempts: 12 },
      reserved: { tokens: 0 },
      counters: { acquired: 1, settled: 1 },
    });
    expect(one(ledger, 'run-b/x/1', 300)).toMatchObject({ ok: true });
  });

  it("is exhausted by a block's tokens without a price while maxUsd is set, as by an attempt's", () => {
    const ledger = ledgerWith({ maxUsd: 5 });
    block(ledger, 'run-a/block/1', 2, 0);
    const verdict = ledger.settle(
      { attemptId: 'run-a/block/1', usage: { inputTokens: 50, costUsd: 0.5, unpricedTokens: 20 }, attempts: 2 },
      T0,
    );
    expect(verdict).toMatchObject({ crossed: 'unpriced-usage' });
    expect(ledger.status(T0)).toMatchObject({ state: 'exhausted', used: { tokens: 50, usd: 0.5 } });
  });

  it("holds a block's lost attempt until an operator resolves it, though the block itself settled", () => {
    const ledger = ledgerWith({ maxTokens: 1_000 });
    block(ledger, 'run-a/block/1', 2, 600);
    ledger.settle(
      {
        attemptId: 'run-a/write/2',
        usage: null,
        attempts: 0,
        lost: { reservation: { tokens: 300, usd: 0 }, workflowId: 'run-a' },
      },
      T0,
    );
    ledger.settle({ attemptId: 'run-a/block/1', usage: { inputTokens: 100, costUsd: 0 }, attempts: 2 }, T0);
    expect(ledger.status(T0)).toMatchObject({
      state: 'recovery_required',
      inFlight: 0,
      used: { tokens: 100 },
      remaining: { tokens: 600 },
    });
    expect(one(ledger, 'run-b/x/1')).toMatchObject({ ok: false, reason: 'recovery-required' });
  });
});

describe("a block's books on the run's side (src/ledger/block-book.ts)", () => {
  const granted = { slots: 3, reservation: { tokens: 300, usd: 0 } };

  it('admits an attempt while open, with a slot and its grant free, and counts what settled attempts took', () => {
    const book = newBlockBook('run-a/block/1', granted, T0 + 1_000);
    enterBlock(book, 'a', { tokens: 100, usd: 0 });
    enterBlock(book, 'b', { tokens: 150, usd: 0 });
    expect(freeOf(book)).toEqual({ tokens: 50, usd: 0 });
    expect(hasRoom(book, { tokens: 60, usd: 0 }, T0)).toBe(false);
    expect(hasRoom(book, { tokens: 50, usd: 0 }, T0)).toBe(true);
    expect(hasRoom(book, { tokens: 50, usd: 0 }, T0 + 1_000)).toBe(false);
    // a spent 30 of its 100; b was lost: what it held counts as taken, and is not charged with the block.
    expect(leaveBlock(book, 'a', { inputTokens: 30, costUsd: 0.1 }, false)).toEqual({ tokens: 100, usd: 0 });
    expect(leaveBlock(book, 'b', null, true)).toEqual({ tokens: 150, usd: 0 });
    expect(freeOf(book)).toEqual({ tokens: 120, usd: -0.1 });
    expect(blockSettlement(book)).toEqual({
      usage: { inputTokens: 30, costUsd: 0.1, model: '(block of 2 attempts)' },
      attempts: 2,
    });
  });

  it('keeps tokens without a price so in its settlement, and grows by a slot each first, then twice as much', () => {
    const book = newBlockBook('run-a/block/1', granted, T0 + 1_000);
    enterBlock(book, 'a', { tokens: 0, usd: 0 });
    leaveBlock(book, 'a', { inputTokens: 40 }, false);
    expect(blockSettlement(book).usage).toMatchObject({ inputTokens: 40, unpricedTokens: 40 });
    expect(nextGrowth(book, { tokens: 7, usd: 0 })).toEqual({ tokens: 21, usd: 0 });
    book.growth = { tokens: 21, usd: 0 };
    expect(nextGrowth(book, { tokens: 7, usd: 0 })).toEqual({ tokens: 42, usd: 0 });
    book.reserved = { tokens: 40 + 10, usd: 0 };
    expect(growsAhead(book)).toBe(true);
    // Once the ledger refused a growth, each extension asks for itself alone, and nothing grows ahead.
    book.growthRefused = true;
    expect(nextGrowth(book, { tokens: 7, usd: 0 })).toEqual({ tokens: 7, usd: 0 });
    expect(growsAhead(book)).toBe(false);
  });

  it('grows ahead by dollars when it grows by dollars alone', () => {
    const book = newBlockBook('run-a/block/2', { slots: 2, reservation: { tokens: 0, usd: 1 } }, T0 + 1_000);
    book.growth = { tokens: 0, usd: 1 };
    book.reserved = { tokens: 0, usd: 2 };
    enterBlock(book, 'a', { tokens: 0, usd: 1.2 });
    expect(freeOf(book)).toEqual({ tokens: 0, usd: 0.8 });
    expect(growsAhead(book)).toBe(false);
    enterBlock(book, 'b', { tokens: 0, usd: 0.4 });
    expect(growsAhead(book)).toBe(true);
  });
});

describe('a block asked with a registration (src/ledger/doors.ts refuseOthersBlock)', () => {
  const block = {
    attemptId: 'run-1/block/b',
    workflowId: 'run-1',
    reservation: { tokens: 0, usd: 0 },
    leaseMs: 60_000,
  };

  it("takes the registering run's own block, and refuses one naming another run", () => {
    expect(() => refuseOthersBlock({ workflowId: 'run-1', block: { ...block, slots: 3 } })).not.toThrow();
    expect(() => refuseOthersBlock({ workflowId: 'run-1' })).not.toThrow();
    expect(() => refuseOthersBlock({ workflowId: 'run-2', block: { ...block, slots: 3 } })).toThrow(
      /forbidden: the block asked with the registration of run-2 names run run-1/,
    );
  });

  it('parses only a block that names its slots, in the registration schema', () => {
    expect(RegisterRequestSchema.safeParse({ workflowId: 'run-1', block }).success).toBe(false);
    expect(RegisterRequestSchema.safeParse({ workflowId: 'run-1', block: { ...block, slots: 2 } }).success).toBe(true);
  });
});

describe("a registration's block sent to a ledger of an earlier version (src/ledger/activities.ts)", () => {
  it('knows the refusal of the unknown field, as the older schema words it, from any other refusal', () => {
    const older = RegisterRequestSchema.omit({ block: true });
    const refusedAs = (payload: unknown) => {
      try {
        parseLedgerRequest(older, payload, 'register');
      } catch (err) {
        const cause = ApplicationFailure.nonRetryable((err as Error).message, 'invalid_request');
        return new WorkflowUpdateFailedError('update failed', cause);
      }
      throw new Error('the older schema took it');
    };
    const block = {
      attemptId: 'run-1/block/b',
      workflowId: 'run-1',
      reservation: { tokens: 0, usd: 0 },
      leaseMs: 60_000,
    };
    expect(refusedBlockField(refusedAs({ workflowId: 'run-1', block: { ...block, slots: 2 } }))).toBe(true);
    expect(refusedBlockField(refusedAs({ workflowId: 'run-1', name: 'x'.repeat(201) }))).toBe(false);
    const forbidden = ApplicationFailure.nonRetryable(
      'forbidden: the block asked with ... names run run-2',
      'forbidden',
    );
    expect(refusedBlockField(new WorkflowUpdateFailedError('update failed', forbidden))).toBe(false);
  });
});
