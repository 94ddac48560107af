import { describe, expect, it } from 'vitest';
import { ledgerStatus } from '../../src/ledger/client';
import { eventsQuery } from '../../src/workflows/messages';
import { startRun, testClient } from '../helpers/env';
import { ledgerForTest, workerForTest } from '../helpers/scenario';

const tasks = (n: number, tokens: number) =>
  Array.from({ length: n }, (_, i) => ({
    key: `t${i + 1}`,
    executor: { kind: 'shell', command: `echo '::teamrun-usage::{"outputTokens":${tokens}}'` },
  }));

describe('a shared ledger holds what an attempt may spend without asking (real dev server)', () => {
  it("two runs with limits of their own, attempts spending within their fair shares: the ledger's maxTokens holds", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({}, onTestFinished);
    const client = await testClient();
    const ledger = await ledgerForTest('ledger-grant', { maxTokens: 300 }, worker.taskQueue, onTestFinished);
    // Each run grants its attempts a fair share of its own 1,000 tokens (about 100 each, no estimate); each attempt
    // spends 60 of it, so none ever asks for more. A ledger that held only the (unset) estimates would admit all 20
    // at once and count 1,200.
    const run = (name: string) =>
      startRun(
        {
          name,
          teammates: 10,
          lease: { ttlMs: 20_000 },
          awaitAdjudication: false,
          budget: { ledger, maxTokens: 1_000 },
          tasks: tasks(10, 60),
        },
        worker.taskQueue,
      );
    const runs = await Promise.all([run('ledger-grant-a'), run('ledger-grant-b')]);
    const results = await Promise.all(runs.map((handle) => handle.result()));
    const status = await ledgerStatus(client, ledger);
    expect(status.used.tokens).toBeLessThanOrEqual(300);
    expect(status.reserved.tokens).toBe(0);
    // Charged once: what the runs charged themselves is what the ledger counted.
    expect(results[0].budget.used.tokens + results[1].budget.used.tokens).toBe(status.used.tokens);
    // Progress, then a stop for the ledger's reason once no grant fits what it has left: nothing waits for ever.
    // Every grant is 100 and every attempt spends 60, so the ledger admits until its used + 100 passes 300.
    expect([240, 300]).toContain(status.used.tokens);
    expect(results.some((r) => r.budget.reason === 'ledger-max-tokens')).toBe(true);
    const refused = [];
    for (const handle of runs) {
      const { events } = await handle.query(eventsQuery, { limit: 1_000 });
      refused.push(...events.filter((e) => e.type === 'task:not-started' && e.reason === 'ledger-max-tokens'));
    }
    expect(refused.length).toBeGreaterThan(0);
    expect(String(refused[0].message)).toContain("left cannot hold the attempt's 100");
    // Which run gets the slots is a race (one may take them all); between them, every success spent its 60.
    const all = results.flatMap((r) => r.tasks);
    expect(all.every((t) => t.status === 'succeeded' || t.status === 'skipped')).toBe(true);
    expect(all.filter((t) => t.status === 'succeeded').length * 60).toBe(status.used.tokens);
  }, 120_000);
});
