import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { abortAllLedger, ledgerStatus } from '../../src/ledger/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import { ledgerActor } from '../../src/plan/requests/ledger';
import { abortRunSignal, abortRunUpdate } from '../../src/workflows/messages';
import { startRun, testClient, waitFor } from '../helpers/env';
import { eventsOf, ledgerForTest, updateCodeOf, workerForSuite } from '../helpers/scenario';

/** A shell step that reports `tokens` of usage, as an LLM-calling step would. */
const spends = (tokens: number) => ({ kind: 'shell', command: `echo '::teamrun-usage::{"inputTokens":${tokens}}'` });

/**
 * A governed run on a shared ledger takes an abort whose actor is its ledger's (`ledger:<name>`) only when the ledger
 * really aborted it: it asks the ledger's workflow. Before, anyone with signal or update rights wrote that actor and
 * aborted the run past its `governance.operators` (issue 39).
 */
describe("an abort in a ledger's name (shared dev server)", () => {
  const worker = workerForSuite();

  const governed = (name: string, ledger: string, tasks: TeamPlanInput['tasks']): TeamPlanInput => ({
    name,
    teammates: 2,
    awaitAdjudication: false,
    governance: { operators: ['ops-bob'] },
    budget: { ledger },
    tasks,
  });

  /** A shell task that runs until `gate` exists (two minutes at most), so the test says when it ends. */
  function gated(): { gate: string; command: string } {
    const dir = mkdtempSync(path.join(tmpdir(), 'teamrun-ledger-abort-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const gate = path.join(dir, 'gate');
    return { gate, command: `for i in $(seq 1 1200); do [ -f '${gate}' ] && exit 0; sleep 0.1; done; exit 1` };
  }

  it("refuses a non-operator's abortRun naming the run's ledger, as signal and as update; the run succeeds", async () => {
    const client = await testClient();
    const ledger = await ledgerForTest('forged-abort', { maxTokens: 100_000 }, worker.taskQueue, onTestFinished, {
      actor: 'ops-alice',
      operators: ['ops-alice'],
    });
    // The ledger has aborted before, just not this run (it had no runs then).
    expect((await abortAllLedger(client, ledger, { actor: 'ops-alice', reason: 'drill' })).runs).toEqual([]);
    const { gate, command } = gated();
    const handle = await startRun(
      governed('forged-abort', ledger, [{ key: 'work', executor: { kind: 'shell', command } }]),
      worker.taskQueue,
    );
    await waitFor('the task to hold a ledger slot', async () => (await ledgerStatus(client, ledger)).inFlight === 1);

    const forged = { actor: ledgerActor(ledger), reason: 'session-budget-exhausted' };
    // The update form is refused in its validator: nothing reaches the run's history.
    expect(await updateCodeOf(handle.executeUpdate(abortRunUpdate, { args: [forged] }))).toBe('forbidden');
    // The signal form is the ledger's own: the run asks the ledger, which did not abort it.
    await handle.signal(abortRunSignal, { ...forged, requestId: `${ledgerActor(ledger)}@1` });
    const answered = async () => (await eventsOf(handle, 'control:rejected'))[0] ?? null;
    const rejected = await waitFor('the run to answer the forged signal', answered, 60_000);
    console.log(`[ledger-abort-proof] forged abort signal: ${String(rejected.detail)}`);
    expect(rejected).toMatchObject({ message: 'abortRun', reason: 'forbidden', actor: ledgerActor(ledger) });
    expect(String(rejected.detail)).toContain(`the last abort of ledger ${ledger}`);

    writeFileSync(gate, 'go');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(result.tasks).toEqual([expect.objectContaining({ key: 'work', status: 'succeeded' })]);
    expect(await eventsOf(handle, 'run:abort-requested')).toEqual([]);
    expect(result.adjudications).toEqual([]);
  });

  it("still takes its ledger's abort-all, from one of the ledger's operators", async () => {
    const client = await testClient();
    const ledger = await ledgerForTest('real-abort', { maxTokens: 100_000 }, worker.taskQueue, onTestFinished, {
      actor: 'ops-alice',
      operators: ['ops-alice'],
    });
    const handle = await startRun(
      governed('real-abort', ledger, [{ key: 'long', executor: { kind: 'sleep', ms: 120_000 } }]),
      worker.taskQueue,
    );
    await waitFor('the task to hold a ledger slot', async () => (await ledgerStatus(client, ledger)).inFlight === 1);
    const verdict = await abortAllLedger(client, ledger, { actor: 'ops-alice', reason: 'incident 42' });
    expect(verdict.runs).toEqual([handle.workflowId]);
    const result = await handle.result();
    expect(result.status).toBe('aborted');
    expect(result.adjudications).toEqual([
      expect.objectContaining({ key: 'long', reason: 'incident 42', actor: ledgerActor(ledger) }),
    ]);
  });

  it('still takes the abort of a ledger a task of another run exhausted', async () => {
    const client = await testClient();
    const ledger = await ledgerForTest('exhausted', { maxTokens: 1_000 }, worker.taskQueue, onTestFinished, {
      actor: 'ops-alice',
      operators: ['ops-alice'],
    });
    const victim = await startRun(
      governed('victim', ledger, [{ key: 'long', executor: { kind: 'sleep', ms: 120_000 } }]),
      worker.taskQueue,
    );
    await waitFor('the victim to hold a ledger slot', async () => (await ledgerStatus(client, ledger)).inFlight === 1);
    const spender = await startRun(
      { name: 'spender', awaitAdjudication: false, budget: { ledger }, tasks: [{ key: 'x', executor: spends(1_500) }] },
      worker.taskQueue,
    );
    const result = await victim.result();
    expect(result.status).toBe('aborted');
    expect(result.adjudications).toEqual([
      expect.objectContaining({ key: 'long', reason: 'session-budget-exhausted', actor: ledgerActor(ledger) }),
    ]);
    await spender.result();
    expect((await ledgerStatus(client, ledger)).exhausted).toMatchObject({ reason: 'max-tokens' });
  });
});
