import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LedgerRenewals } from '../../src/ledger/renewal';

describe("a worker's renewals of its attempts' ledger slots", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names every attempt of a ledger in one update, soon after they start and then every period, until released', async () => {
    const sent: Array<[string, string[]]> = [];
    const renewals = new LedgerRenewals(async (ledgerId, ids) => {
      sent.push([ledgerId, ids]);
    });
    const a = renewals.hold({ ledgerId: 'L', attemptId: 'run/a/1', renewEveryMs: 2_000 });
    renewals.hold({ ledgerId: 'L', attemptId: 'run/b/1', renewEveryMs: 5_000 });
    renewals.hold({ ledgerId: 'M', attemptId: 'other/c/1', renewEveryMs: 2_000 });
    await vi.advanceTimersByTimeAsync(300);
    expect(sent).toEqual([
      ['L', ['run/a/1', 'run/b/1']],
      ['M', ['other/c/1']],
    ]);
    // Every period (the shortest asked on the ledger): 2 s.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.slice(2)).toEqual([
      ['L', ['run/a/1', 'run/b/1']],
      ['M', ['other/c/1']],
    ]);
    a();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent.slice(4)).toEqual([
      ['L', ['run/b/1']],
      ['M', ['other/c/1']],
    ]);
    expect(renewals.holding).toBe(2);
  });

  it('keeps one update in flight per ledger, and goes on after a failed one', async () => {
    let calls = 0;
    let release: () => void = () => {};
    const warned: string[] = [];
    const renewals = new LedgerRenewals(
      (_ledgerId, _ids) => {
        calls += 1;
        if (calls === 1) return new Promise<void>((resolve) => (release = resolve));
        return Promise.reject(new Error('busy'));
      },
      (message) => warned.push(message),
    );
    const stop = renewals.hold({ ledgerId: 'L', attemptId: 'run/a/1', renewEveryMs: 1_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    // The first never answered: no second update was sent meanwhile.
    expect(calls).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_100);
    expect(calls).toBe(2);
    expect(warned).toEqual(['ledger slot renewal failed']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toBe(3);
    expect(renewals.holding).toBe(0);
  });

  it("renews a run's block while any attempt of it runs on this worker, and stops when the last one ends", async () => {
    const sent: string[][] = [];
    const renewals = new LedgerRenewals(async (_ledgerId, ids) => {
      sent.push(ids);
    });
    const first = renewals.hold({ ledgerId: 'L', attemptId: 'run/block/1', renewEveryMs: 1_000 });
    const second = renewals.hold({ ledgerId: 'L', attemptId: 'run/block/1', renewEveryMs: 1_000 });
    await vi.advanceTimersByTimeAsync(300);
    expect(sent).toEqual([['run/block/1']]);
    first();
    first();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toEqual([['run/block/1'], ['run/block/1']]);
    second();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sent).toHaveLength(2);
    expect(renewals.holding).toBe(0);
  });
});
