import { Worker } from '@temporalio/worker';
import { describe, expect, inject, it } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { adjudicationsQuery } from '../../src/workflows/messages';
import * as msg from '../../src/workflows/messages';
import { ledgerStatus } from '../../src/ledger/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import { historyAttempts, maxOverlap } from '../helpers/history';
import { startRun, testClient } from '../helpers/env';
import { ledgerForTest, workerForSuite } from '../helpers/scenario';

/** What `teamrun reserve --tokens 7` does, then a usage line of 7 if granted. */
const RESERVE_AND_SPEND =
  `[ "$(curl -s -o /dev/null -w '%{http_code}' --unix-socket "$TEAMRUN_ATTEMPT_SOCKET" ` +
  `-H "Authorization: Bearer $TEAMRUN_ATTEMPT_SECRET" -d '{"tokens":7}' http://gateway/reserve)" = 200 ] && ` +
  `echo '::teamrun-usage::{"outputTokens":7}'`;

/** Tasks that hold nothing up front: each attempt's 7 tokens are an extension its run (and its ledger) must grant. */
const reserving = (count: number, before = '') =>
  Array.from({ length: count }, (_, i) => ({
    key: `t${i}`,
    estimate: { tokens: 0, usd: 0 },
    executor: { kind: 'shell', command: `${before}${RESERVE_AND_SPEND}` },
  }));

/**
 * Runs that take their ledger's slots in blocks (`budget.ledgerBlocks`, src/ledger/blocks.ts): fewer ledger calls,
 * the same limits. Each test runs the same plans with a slot per attempt too, and expects the same outcome.
 */
describe('runs taking their ledger slots in blocks (shared dev server)', () => {
  const worker = workerForSuite();

  const plan = (name: string, ledger: string, blocks: boolean, extra: Partial<TeamPlanInput>): TeamPlanInput => ({
    name,
    teammates: 3,
    lease: { ttlMs: 10_000 },
    awaitAdjudication: false,
    budget: { ledger, ...(blocks ? { ledgerBlocks: true } : {}) },
    tasks: [],
    ...extra,
  });

  it.each([true, false])(
    'hold no more than maxConcurrent at once across two runs, and charge every attempt once (blocks: %s)',
    async (blocks) => {
      const ledger = await ledgerForTest('blocks-cap', { maxConcurrent: 3, maxTokens: 10_000 }, worker.taskQueue);
      const tasks = reserving(6, 'sleep 0.4; ');
      const handles = await Promise.all(
        ['left', 'right'].map((name) => startRun(plan(name, ledger, blocks, { tasks }), worker.taskQueue)),
      );
      const results = await Promise.all(handles.map((h) => h.result()));
      expect(results.map((r) => [r.status, r.budget.used.tokens])).toEqual([
        ['succeeded', 42],
        ['succeeded', 42],
      ]);
      for (const h of handles) expect(await h.query(adjudicationsQuery)).toEqual([]);
      // Each run alone would run 3 at once: together they took turns within the ledger's 3.
      const attempts = (await Promise.all(handles.map((h) => historyAttempts(h))))
        .flat()
        .filter((a) => a.activityType === msg.ACTIVITY_TYPE);
      expect(attempts).toHaveLength(12);
      expect(maxOverlap(attempts)).toBeLessThanOrEqual(3);
      const status = await ledgerStatus(await testClient(), ledger);
      expect(status).toMatchObject({
        state: 'open',
        inFlight: 0,
        reserved: { tokens: 0, usd: 0 },
        used: { tokens: 84, attempts: 12 },
        runs: [],
      });
      // A block is one slot taken on the ledger for many attempts.
      if (blocks) expect(status.counters.acquired).toBeLessThan(12);
      else expect(status.counters.acquired).toBe(12);
    },
  );

  it('take one block for the attempts a run starts together, and settle it once', async () => {
    const ledger = await ledgerForTest('blocks-one', { maxTokens: 10_000 }, worker.taskQueue);
    const handle = await startRun(
      plan('together', ledger, true, { teammates: 4, tasks: reserving(4, 'sleep 1; ') }),
      worker.taskQueue,
    );
    expect((await handle.result()).status).toBe('succeeded');
    expect(await ledgerStatus(await testClient(), ledger)).toMatchObject({
      used: { tokens: 28, attempts: 4 },
      counters: { acquired: 1, settled: 1 },
    });
    // The block was asked with the run's registration: one ledger call before its first attempt, not two.
    const scheduled = ((await handle.fetchHistory()).events ?? [])
      .map((e) => e.activityTaskScheduledEventAttributes)
      .filter((a) => a !== null && a !== undefined)
      .map((a) => ({
        type: a.activityType?.name,
        input: defaultPayloadConverter.fromPayload(a.input!.payloads![0]) as { block?: { slots?: number } },
      }));
    expect(scheduled.map((a) => a.type).slice(0, 2)).toEqual(['ledgerRegister', msg.ACTIVITY_TYPE]);
    expect(scheduled[0].input.block?.slots).toBe(4);
    expect(scheduled.filter((a) => a.type === 'ledgerAcquire')).toEqual([]);
    // Its history replays with the same code (the attempts launched before the registration, behind their patch).
    const replayed = Worker.runReplayHistory(
      { workflowBundle: { codePath: inject('workflowBundle') }, replayName: 'blocks-with-registration' },
      await handle.fetchHistory(),
      handle.workflowId,
    );
    await expect(replayed).resolves.toBeUndefined();
  });

  it('settle their blocks before the run continues as new, and charge every attempt once across it', async () => {
    const ledger = await ledgerForTest('blocks-can', { maxTokens: 10_000 }, worker.taskQueue);
    const handle = await startRun(
      plan('continues', ledger, true, { teammates: 4, continueAsNewAfterEvents: 200, tasks: reserving(24) }),
      worker.taskQueue,
    );
    const result = await handle.result();
    expect([result.status, result.budget.used.tokens]).toEqual(['succeeded', 168]);
    const client = await testClient();
    const chain: string[] = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = "${handle.workflowId}"` }))
      chain.push(run.status.name);
    expect(chain.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(1);
    expect(await ledgerStatus(client, ledger)).toMatchObject({
      inFlight: 0,
      reserved: { tokens: 0, usd: 0 },
      used: { tokens: 168, attempts: 24 },
      runs: [],
    });
  });

  it.each([true, false])(
    "refuse an attempt's extension past the ledger's maxTokens, granting the ones that fit (blocks: %s)",
    async (blocks) => {
      const ledger = await ledgerForTest('blocks-tokens', { maxTokens: 20 }, worker.taskQueue);
      const handle = await startRun(
        plan('tokens', ledger, blocks, { teammates: 1, tasks: reserving(3) }),
        worker.taskQueue,
      );
      const result = await handle.result();
      const statuses = result.tasks.map((t) => `${t.key} ${t.status}`);
      expect(statuses).toEqual(['t0 succeeded', 't1 succeeded', 't2 adjudication']);
      const [refused] = await handle.query(adjudicationsQuery);
      // A block's 14 are reserved until it settles; a slot each had charged them already.
      const [, used, reserved] =
        /maxTokens 20 \(used (\d+), reserved (\d+), asked 7\)/.exec(refused.reason ?? '') ?? [];
      expect([refused.key, Number(used) + Number(reserved)]).toEqual(['t2', 14]);
      expect(result.budget.used.tokens).toBe(14);
      if (blocks) {
        // One block, grown by 7, then refused 14 and granted t1's 7 alone: t2's 7 is asked once, not doubled first.
        const asks = ((await handle.fetchHistory()).events ?? []).filter(
          (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'ledgerExtend',
        ).length;
        console.log(`[ledger-blocks] ledgerExtend calls for 3 extensions, one refused: ${asks}`);
        expect(asks).toBeLessThanOrEqual(4);
      }
      expect(await ledgerStatus(await testClient(), ledger)).toMatchObject({
        inFlight: 0,
        reserved: { tokens: 0 },
        used: { tokens: 14, attempts: 3 },
      });
    },
  );
});
