import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ledgerStatus } from '../../src/ledger/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import type { TeamRunHandle } from '../../src/client';
import { spawnWorkerProcess, startRun, testClient, uniqueQueue, waitFor } from '../helpers/env';
import { historyAttempts, type HistoryAttempt } from '../helpers/history';
import { eventsOf, ledgerForTest, workerForSuite } from '../helpers/scenario';

const TTL_MS = 2_000;

const plan = (name: string, ledger: string, tasks: TeamPlanInput['tasks']): TeamPlanInput => ({
  name,
  teammates: 4,
  lease: { ttlMs: TTL_MS },
  budget: { ledger },
  tasks,
});

/** A shell task that marks `mine` and waits (at most 120 s) until `theirs` is marked: it ends only beside it. */
const meet = (dir: string, mine: string, theirs: string) =>
  `touch '${dir}/${mine}'; i=0; until [ -f '${dir}/${theirs}' ]; do i=$((i+1)); [ $i -gt 1200 ] && exit 1; ` +
  'sleep 0.1; done';

/** The task's one runTask as the run's history records it: when a worker started it, when it closed. */
async function attemptOf(handle: TeamRunHandle, key: string): Promise<HistoryAttempt> {
  const attempts = (await historyAttempts(handle)).filter(
    (a) => a.activityType === 'runTask' && a.activityId.startsWith(`${key}#`),
  );
  expect(attempts.map((a) => a.outcome)).toEqual(['completed']);
  return attempts[0];
}

const overlap = (a: HistoryAttempt, b: HistoryAttempt) => a.startedAt! < b.closedAt! && b.startedAt! < a.closedAt!;

function terminateLater(handle: TeamRunHandle) {
  onTestFinished(async () => {
    if ((await handle.describe()).status.name === 'RUNNING') await handle.terminate('test cleanup');
  });
}

describe('scopes held on a shared ledger, across runs (shared dev server)', () => {
  const worker = workerForSuite();

  it('never runs two runs’ overlapping scopes at once, while their disjoint scopes run side by side', async () => {
    const client = await testClient();
    const ledger = await ledgerForTest('scopes', {}, worker.taskQueue);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-scopes-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const a = await startRun(
      plan('scopes-a', ledger, [
        { key: 'edit-src', scope: ['src'], executor: { kind: 'shell', command: 'sleep 2' } },
        { key: 'edit-docs', scope: ['docs'], executor: { kind: 'shell', command: meet(dir, 'docs', 'tests') } },
      ]),
      worker.taskQueue,
    );
    const b = await startRun(
      plan('scopes-b', ledger, [
        { key: 'edit-ledger', scope: ['src/ledger/'], executor: { kind: 'shell', command: 'sleep 2' } },
        { key: 'edit-tests', scope: ['test'], executor: { kind: 'shell', command: meet(dir, 'tests', 'docs') } },
      ]),
      worker.taskQueue,
    );
    terminateLater(a);
    terminateLater(b);
    expect((await a.result()).status).toBe('succeeded');
    expect((await b.result()).status).toBe('succeeded');

    // From the histories: src and src/ledger/ never ran at once; docs and test did (each waited for the other).
    const [src, srcLedger] = [await attemptOf(a, 'edit-src'), await attemptOf(b, 'edit-ledger')];
    expect(overlap(src, srcLedger)).toBe(false);
    expect(overlap(await attemptOf(a, 'edit-docs'), await attemptOf(b, 'edit-tests'))).toBe(true);

    // Each run's log says when its task took and gave back its scopes, in the run and on the ledger.
    for (const [handle, key, scope] of [
      [a, 'edit-src', ['src']],
      [b, 'edit-ledger', ['src/ledger']],
    ] as const) {
      const acquired = (await eventsOf(handle, 'task:scope-acquired')).filter((e) => e.key === key);
      const released = (await eventsOf(handle, 'task:scope-released')).filter((e) => e.key === key);
      expect(acquired.map((e) => [e.ledger ?? null, e.scope])).toEqual([
        [null, scope],
        [ledger, scope],
      ]);
      expect(released.map((e) => [e.ledger ?? null, e.why])).toEqual([
        [null, 'completed'],
        [ledger, 'completed'],
      ]);
    }
    const status = await ledgerStatus(client, ledger);
    expect(status.scopes).toEqual([]);
    const scopeEvents = status.recentEvents.filter((e) => e.type.startsWith('scope:'));
    expect(scopeEvents.filter((e) => e.type === 'scope:acquired')).toHaveLength(4);
    expect(scopeEvents.filter((e) => e.type === 'scope:released').map((e) => e.why)).toEqual(Array(4).fill('settled'));
  }, 300_000);

  it("frees the scope of a run whose worker was killed (-9) when its slot's lease runs out; the other run proceeds", async () => {
    const client = await testClient();
    const ledger = await ledgerForTest('scopes-kill', {}, worker.taskQueue);
    const runQueue = uniqueQueue('scopes-doomed');
    const doomed = await spawnWorkerProcess({ taskQueue: runQueue, identity: 'doomed' });
    onTestFinished(async () => {
      doomed.child.kill('SIGKILL');
      await doomed.exited;
    });
    const stuck = await startRun(
      plan('scopes-stuck', ledger, [{ key: 'hold', scope: ['src'], executor: { kind: 'sleep', ms: 120_000 } }]),
      runQueue,
    );
    terminateLater(stuck);
    const held = await waitFor(
      'the stuck run to hold src on the ledger',
      async () => {
        const [scope] = (await ledgerStatus(client, ledger)).scopes;
        return scope?.workflowId === stuck.workflowId ? scope : null;
      },
      90_000,
    );
    expect(held).toMatchObject({ scope: ['src'], task: 'hold', fencingToken: 1 });

    const next = await startRun(
      plan('scopes-next', ledger, [{ key: 'edit', scope: ['src/app'], executor: { kind: 'noop' } }]),
      worker.taskQueue,
    );
    terminateLater(next);
    // It waits at the ledger: its acquire is refused as busy and tried again, and its attempt never starts.
    await waitFor(
      'the next run to wait for the scope',
      async () => {
        const pending = (await next.describe()).raw.pendingActivities ?? [];
        const acquire = pending.find((p) => p.activityId === 'edit#1:ledger-acquire');
        return (acquire?.attempt ?? 0) > 1 && /scope-busy|overlaps/.test(acquire?.lastFailure?.message ?? '');
      },
      // Generous: on a loaded server the acquire's tries also meet "too many updates in flight" between refusals.
      90_000,
    );
    expect((await historyAttempts(next)).filter((x) => x.activityType === 'runTask')).toEqual([]);

    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect((await next.result()).status).toBe('succeeded');
    const status = await ledgerStatus(client, ledger);
    const released = status.recentEvents.find((e) => e.type === 'scope:released' && e.attemptId === held.attemptId);
    expect(released).toMatchObject({ why: 'expired', workflowId: stuck.workflowId });
    // The next run's attempt started only after the dead attempt's scope was released.
    expect((await attemptOf(next, 'edit')).startedAt!).toBeGreaterThanOrEqual(released!.at);
    expect(status.scopes).toEqual([]);
  }, 300_000);
});
