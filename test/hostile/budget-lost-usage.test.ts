import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { testConfig } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { TTL_MS, pidRunning, recordPids, spawnWorker, startLeaseRun, tempDir } from '../integration/leases-helpers';
import { waitForStatus } from '../integration/takeover-helpers';
import { expectLiveWorker, workflowTaskFailures } from './corpus';

describe('budget rules end to end (real worker processes, real dev server)', () => {
  it('a worker killed -9 mid-attempt under maxTokens: usage unknown, charged its reservation, the run stops (usage-unknown), the task goes to adjudication', async () => {
    const dir = tempDir();
    const queue = `lost-usage-${process.pid}-${Date.now().toString(36)}`;
    const victim = await spawnWorker(queue, 'lost-usage-victim');
    const handle = await startLeaseRun(
      {
        name: 'lost-usage',
        teammates: 1,
        lease: { ttlMs: TTL_MS },
        retry: { maxAttempts: 5, backoffMs: 0 },
        budget: { maxTokens: 1_000 },
        tasks: [
          // Spends tokens it never gets to report: the worker dies first.
          {
            key: 'spend',
            estimate: { tokens: 300 },
            executor: { kind: 'shell', command: `${recordPids(dir)}\nsleep 60` },
          },
          { key: 'next', executor: { kind: 'noop' } },
        ],
      },
      queue,
    );
    expect(await pidRunning(dir, 'spend', 1)).toBe(victim.child.pid);
    const survivor = await workerForTest({ taskQueue: queue, identity: 'lost-usage-survivor' });
    victim.child.kill('SIGKILL');

    await waitForStatus(handle, 'spend', 'adjudication', 60_000);
    const budget = await handle.query(msg.budgetQuery);
    expect(budget).toMatchObject({
      stopped: true,
      reason: 'usage-unknown',
      usageUnknown: true,
      used: { tasks: 1, tokens: 300 },
    });
    const [record] = await handle.query(msg.adjudicationsQuery);
    expect(record).toMatchObject({ key: 'spend', code: 'TEAM_TASK_ABANDONED_ADJUDICATION_REQUIRED', fencingToken: 1 });
    expect(record.reason).toContain('usage-unknown');

    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'spend', decision: 'reject', decisionId: 'lost-1', actor: 'ops' }],
    });
    const result = await handle.result();
    // Before: the lost attempt charged nothing, it was re-leased and the run succeeded under its limit.
    expect(result).toMatchObject({ status: 'budget_stopped', budgetReason: 'usage-unknown', executions: 1 });
    expect(result.tasks.map((t) => [t.key, t.status])).toEqual([
      ['spend', 'failed'],
      ['next', 'skipped'],
    ]);
    expect(await workflowTaskFailures(handle)).toEqual([]);
    await expectLiveWorker(survivor);
  });

  it('the wall clock stops a run whose second attempt never started: released, not counted, its task skipped with the budget reason', async () => {
    // One slot on the only worker: the second attempt waits, scheduled, until the wall clock ends the run.
    const worker = await workerForTest({ config: testConfig({ maxConcurrentAttempts: 1 }) });
    const handle = await startLeaseRun(
      {
        name: 'wall-not-started',
        teammates: 2,
        lease: { ttlMs: TTL_MS },
        awaitAdjudication: false,
        budget: { maxWallMs: 4_000 },
        tasks: [
          { key: 'first', executor: { kind: 'sleep', ms: 600_000 } },
          { key: 'second', executor: { kind: 'sleep', ms: 600_000 } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result).toMatchObject({
      status: 'budget_stopped',
      budgetReason: 'max-wall-ms',
      executions: 1,
      budget: { used: { tasks: 1 } },
    });
    // Which of the two the worker picked up first is the server's choice; the other never started.
    const ran = result.tasks.find((t) => t.status === 'adjudication')!;
    const waited = result.tasks.find((t) => t.key !== ran.key)!;
    expect([ran.attempts, ran.skipReason]).toEqual([1, null]);
    expect([waited.status, waited.attempts, waited.skipReason]).toEqual(['skipped', 0, 'budget_stopped: max-wall-ms']);
    expect(result.adjudications.map((a) => a.key)).toEqual([ran.key]);
    const { events } = await handle.query(msg.eventsQuery, { limit: 1_000 });
    expect(events.filter((e) => e.type === 'task:not-started')).toMatchObject([
      { key: waited.key, message: 'cancelled before a worker started the attempt' },
    ]);
    expect(await workflowTaskFailures(handle)).toEqual([]);
    await expectLiveWorker(worker);
  });
});
