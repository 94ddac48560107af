import { describe, expect, it } from 'vitest';
import * as msg from '../../src/workflows/messages';
import { testConfig, waitFor } from '../helpers/env';
import { workerForTest } from '../helpers/scenario';
import { TTL_MS, pidRunning, recordPids, spawnWorker, startLeaseRun, tempDir } from '../integration/leases-helpers';
import { expectLiveWorker, workflowTaskFailures } from './corpus';

describe('budget rules end to end (real worker processes, real dev server)', () => {
  it('a worker killed -9 mid-attempt under maxTokens, after a usage line: charged its bound (grant and extension), leased again, the run succeeds', async () => {
    const dir = tempDir();
    const queue = `lost-usage-${process.pid}-${Date.now().toString(36)}`;
    const victim = await spawnWorker(queue, 'lost-usage-victim');
    const usageLine = (tokens: number) => `echo '::teamrun-usage::{"inputTokens":${tokens}}'`;
    const handle = await startLeaseRun(
      {
        name: 'lost-usage',
        teammates: 1,
        lease: { ttlMs: TTL_MS },
        retry: { maxAttempts: 5, backoffMs: 0 },
        budget: { maxTokens: 1_000 },
        tasks: [
          // Attempt 1 reports 400 tokens (100 past its 300: the run extends its grant), then the worker dies.
          {
            key: 'spend',
            estimate: { tokens: 300 },
            executor: {
              kind: 'shell',
              command:
                `if [ "$TEAMRUN_ATTEMPT" = 1 ]; then ${usageLine(400)}; ${recordPids(dir)}; sleep 60; ` +
                `else ${usageLine(50)}; fi`,
            },
          },
          { key: 'next', dependsOn: ['spend'], executor: { kind: 'noop' } },
        ],
      },
      queue,
    );
    expect(await pidRunning(dir, 'spend', 1)).toBe(victim.child.pid);
    // The shell runs on while its worker asks for the extension: killed before the run granted it, the attempt holds
    // only its 300 and is charged that (docs/budgets.md: the run knows what it allowed, not what was reported).
    await waitFor('the run to grant the usage line its extension', async () => {
      const budget = await handle.query(msg.budgetQuery);
      return budget.reserved.tokens === 400;
    });
    const survivor = await workerForTest({ taskQueue: queue, identity: 'lost-usage-survivor' });
    victim.child.kill('SIGKILL');

    const result = await handle.result();
    // Before: the run stopped usage-unknown and the task waited for a human (TEAM_TASK_ABANDONED_...).
    expect(result).toMatchObject({ status: 'succeeded', budgetReason: null, executions: 3 });
    expect(result.tasks.map((t) => [t.key, t.status, t.attempts])).toEqual([
      ['spend', 'succeeded', 2],
      ['next', 'succeeded', 1],
    ]);
    const { events } = await handle.query(msg.eventsQuery, { limit: 1_000 });
    // The lost attempt is charged what it held: its 300-token grant and the 100 the run extended it, not more.
    expect(events.filter((e) => e.type === 'lease:expired')).toMatchObject([
      { key: 'spend', fencingToken: 1, charged: { tokens: 400, usd: 0 }, usageUnknown: false },
    ]);
    // The second attempt's 50 tokens, and the noop's nothing.
    expect(result.budget).toMatchObject({ stopped: false, usageUnknown: false, used: { tokens: 450, tasks: 3 } });
    expect(result.adjudications).toEqual([]);
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
