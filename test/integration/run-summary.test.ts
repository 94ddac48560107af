import { describe, expect, it } from 'vitest';
import { ledgerForTest, runForTest, workerForTest } from '../helpers/scenario';

describe("a run's result: its shared ledger at the end", () => {
  it("holds the ledger's totals as the run left it: what both tasks spent, nothing in flight", async () => {
    const worker = await workerForTest();
    const ledger = await ledgerForTest('summary-ledger', { maxTokens: 100_000 }, worker.taskQueue);
    const spends = (tokens: number) => ({
      kind: 'shell',
      command: `echo '::teamrun-usage::{"inputTokens":${tokens}}'`,
    });
    const handle = await runForTest(
      {
        name: 'summary-ledger',
        teammates: 2,
        budget: { ledger },
        tasks: [
          { key: 'a', executor: spends(300) },
          { key: 'b', executor: spends(200) },
        ],
      },
      worker,
    );
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.ledger).toMatchObject({
      id: ledger,
      state: 'open',
      inFlight: 0,
      used: { tokens: 500, attempts: 2 },
      remaining: { tokens: 99_500 },
    });
    expect(result.members).toHaveLength(2);
    expect(result.mailbox).toEqual({ sent: 0, messages: 0, bytes: 0, pressure: 'normal', refused: 0 });
  });
});
