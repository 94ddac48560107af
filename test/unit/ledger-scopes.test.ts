import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/rules';
import { LEASE, T0, ledgerWith } from '../helpers/ledger-rules';

/** An attempt `<run>/<task>/<token>` asking for a slot that holds `scope`. */
const acquire = (ledger: Ledger, attemptId: string, scope: string[] | undefined, now = T0) => {
  const [workflowId, task, token] = attemptId.split('/');
  const named = scope ? { scope, task, fencingToken: Number(token) } : {};
  const request = { attemptId, workflowId, reservation: { tokens: 0, usd: 0 }, leaseMs: LEASE, ...named };
  // The update's validator asks `check` first; the handler applies `acquire`: both must agree.
  const checked = ledger.check(request, now);
  const verdict = ledger.acquire(request, now);
  expect(checked === null).toBe(verdict.ok);
  return verdict;
};

const settle = (ledger: Ledger, attemptId: string, now = T0) => ledger.settle({ attemptId, usage: null }, now);

describe('scopes held on a shared ledger, across runs', () => {
  it('refuses an overlapping scope of another run as a wait, admits a disjoint one, and frees it on settle', () => {
    const ledger = ledgerWith({});
    expect(acquire(ledger, 'run-a/build/1', ['src/'])).toMatchObject({ ok: true });
    const busy = acquire(ledger, 'run-b/lint/3', ['src/ledger'], T0 + 10);
    expect(busy).toMatchObject({ ok: false, reason: 'scope-busy', retryable: true });
    expect(busy.ok ? '' : busy.message).toMatch(/overlaps \[src\/\], held by run run-a task build \(token 1\) since /);
    // The whole workspace overlaps everything; a disjoint scope and an attempt without scope pass.
    expect(acquire(ledger, 'run-b/all/4', ['*'], T0 + 10)).toMatchObject({ reason: 'scope-busy' });
    expect(acquire(ledger, 'run-b/docs/5', ['docs'], T0 + 10)).toMatchObject({ ok: true });
    expect(acquire(ledger, 'run-b/free/6', undefined, T0 + 10)).toMatchObject({ ok: true });

    expect(ledger.status(T0 + 20).scopes).toEqual([
      {
        scope: ['src/'],
        attemptId: 'run-a/build/1',
        workflowId: 'run-a',
        task: 'build',
        fencingToken: 1,
        since: T0,
        expiresAt: T0 + LEASE,
      },
      expect.objectContaining({ scope: ['docs'], workflowId: 'run-b', task: 'docs', since: T0 + 10 }),
    ]);
    settle(ledger, 'run-a/build/1', T0 + 30);
    expect(acquire(ledger, 'run-b/lint/3', ['src/ledger'], T0 + 40)).toMatchObject({ ok: true });
    const events = ledger.status(T0 + 40).recentEvents.filter((e) => e.type.startsWith('scope:'));
    expect(events.map((e) => [e.type, e.attemptId, e.why ?? null])).toEqual([
      ['scope:acquired', 'run-a/build/1', null],
      ['scope:acquired', 'run-b/docs/5', null],
      ['scope:released', 'run-a/build/1', 'settled'],
      ['scope:acquired', 'run-b/lint/3', null],
    ]);
  });

  it("frees a dead attempt's scope when its slot's lease runs out, and keeps it while the attempt renews", () => {
    const ledger = ledgerWith({});
    acquire(ledger, 'run-a/build/1', ['src']);
    ledger.renew('run-a/build/1', T0 + LEASE - 1);
    expect(acquire(ledger, 'run-b/build/1', ['src'], T0 + LEASE + 10)).toMatchObject({ reason: 'scope-busy' });
    // No renewal since: at the lease's end the scope is free (the run that held it died).
    const expiry = T0 + LEASE - 1 + LEASE;
    expect(acquire(ledger, 'run-b/build/1', ['src'], expiry - 1)).toMatchObject({ reason: 'scope-busy' });
    expect(acquire(ledger, 'run-b/build/1', ['src'], expiry)).toMatchObject({ ok: true });
    const released = ledger.status(expiry).recentEvents.find((e) => e.type === 'scope:released');
    expect(released).toMatchObject({ attemptId: 'run-a/build/1', why: 'expired' });
    expect(ledger.status(expiry).scopes.map((s) => s.attemptId)).toEqual(['run-b/build/1']);
  });

  it("is fenced by the attempt: a stale attempt's settle does not free the scope its task's newer attempt holds", () => {
    const ledger = ledgerWith({});
    acquire(ledger, 'run-a/build/1', ['src']);
    settle(ledger, 'run-a/build/1', T0 + 1);
    acquire(ledger, 'run-a/build/2', ['src'], T0 + 2);
    // The old attempt settles again (a retry): a duplicate, nothing freed.
    expect(settle(ledger, 'run-a/build/1', T0 + 3)).toMatchObject({ duplicate: true });
    expect(acquire(ledger, 'run-b/x/1', ['src/a'], T0 + 4)).toMatchObject({ reason: 'scope-busy' });
  });

  it('carries held scopes across a snapshot (continue-as-new)', () => {
    const ledger = ledgerWith({});
    acquire(ledger, 'run-a/build/1', ['src']);
    const next = new Ledger(ledger.snapshot());
    expect(acquire(next, 'run-b/x/1', ['src'], T0 + 1)).toMatchObject({ reason: 'scope-busy' });
    expect(next.status(T0 + 1).scopes).toHaveLength(1);
  });
});

describe('`teamrun ledger status` lists held scopes', () => {
  it('prints one line per holder: its scopes, run, task, token, since and expiry', async () => {
    const { renderLedger } = await import('../../src/cli/commands/ledger.js');
    const ledger = ledgerWith({});
    acquire(ledger, 'run-a/build/7', ['src', 'docs/api']);
    acquire(ledger, 'run-b/free/1', undefined);
    const lines = renderLedger(ledger.status(T0 + 1))
      .split('\n')
      .filter((line) => line.includes('scope '));
    expect(lines).toEqual([
      `  scope      src, docs/api: run run-a task build token 7 since ${new Date(T0).toISOString()} ` +
        `(expires ${new Date(T0 + LEASE).toISOString()} unless renewed)`,
    ]);
  });
});
