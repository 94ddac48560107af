import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { WorkflowHandle, WorkflowStartOptions } from '@temporalio/client';
import { abortAllLedger, ledgerStatus } from '../../src/ledger/client';
import * as lm from '../../src/ledger/messages';
import { Ledger, type LedgerSnapshot } from '../../src/ledger/rules';
import type { TeamPlanInput } from '../../src/plan/schema';
import { ledgerActor, ledgerWorkflowId } from '../../src/plan/requests/ledger';
import { abortRunSignal, abortRunUpdate } from '../../src/workflows/messages';
import { startRun, testClient, uniqueQueue, waitFor } from '../helpers/env';
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

  /**
   * Planted ledgers (issue 49): anyone who may start workflows starts `budgetLedger` under a free ledger id with books
   * of their own (`continued`, as only the ledger's continue-as-new should pass them): operators of their choosing and
   * a last abort naming a run, an hour from now, so a run asking "did you abort me?" would hear yes.
   */
  const forgedBooks = (name: string, runs: string[]): LedgerSnapshot => ({
    ...Ledger.create(name, {}, Date.now(), ['mallory']).snapshot(),
    lastAbort: { reason: 'session-budget-exhausted', actor: ledgerActor(name), at: Date.now() + 3_600_000, runs },
  });

  async function plant(name: string, runs: string[], how: Partial<WorkflowStartOptions> = {}) {
    const client = await testClient();
    const handle = await client.workflow.start(lm.LEDGER_WORKFLOW_TYPE, {
      workflowId: ledgerWorkflowId(name),
      taskQueue: worker.taskQueue,
      args: [{ continued: forgedBooks(name, runs) }],
      ...how,
    } as WorkflowStartOptions);
    onTestFinished(async () => {
      await client.workflow
        .getHandle(handle.workflowId)
        .terminate('test cleanup')
        .catch(() => undefined);
    });
    return handle;
  }

  /** One run of a planted ledger: how it closed, or the last abort it answered while it ran. */
  async function outcome(workflowId: string, runId: string) {
    const handle = (await testClient()).workflow.getHandle(workflowId, runId, { followRuns: false });
    const seen = await waitFor(`run ${runId} of ${workflowId} to close or answer`, async () => {
      const { status } = await handle.describe();
      if (status.name !== 'RUNNING') return { closed: status.name };
      const books = await handle.query(lm.ledgerStatusQuery).catch(() => null);
      return books && { answered: books.lastAbort };
    });
    return { ...seen, failure: 'closed' in seen ? await failureOf(handle) : null };
  }

  it('fails a ledger started with continued books, naming why, and never answers with them', async () => {
    const name = uniqueQueue('planted');
    const planted = await plant(name, ['some-run']);
    const seen = await outcome(planted.workflowId, planted.firstExecutionRunId);
    console.log(`[ledger-abort-proof] planted ledger: ${JSON.stringify(seen)}`);
    expect(seen).toEqual({ closed: 'FAILED', failure: expect.objectContaining({ type: lm.LEDGER_PLANTED }) });
    expect(seen.failure).toMatchObject({ nonRetryable: true });
    expect(seen.failure?.message).toContain(
      `${ledgerWorkflowId(name)}: a ledger's continued books come only from its own continue-as-new; ` +
        'this run was started with them (it continues no run)',
    );
    // Closed, it still answers no query with the books it was given.
    await expect(planted.query(lm.ledgerStatusQuery)).rejects.toThrow();
  });

  it("refuses a cron schedule's later runs too, which start as if they continued the first", async () => {
    const client = await testClient();
    const planted = await plant(uniqueQueue('planted-cron'), ['some-run'], { cronSchedule: '@every 1s' });
    const first = await outcome(planted.workflowId, planted.firstExecutionRunId);
    expect(first).toMatchObject({ closed: 'FAILED', failure: { type: lm.LEDGER_PLANTED } });
    const later = await waitFor('a later run of the cron-planted ledger', async () => {
      const { runId } = await client.workflow.getHandle(planted.workflowId).describe();
      return runId !== planted.firstExecutionRunId ? runId : null;
    });
    const seen = await outcome(planted.workflowId, later);
    console.log(`[ledger-abort-proof] cron-planted ledger, run ${later}: ${JSON.stringify(seen)}`);
    expect(seen).toMatchObject({ closed: 'FAILED', failure: { type: lm.LEDGER_PLANTED } });
    expect(seen.failure?.message).toContain('a run of the cron schedule "@every 1s"');
    // That run did start as a continuation of the first, under the schedule: what the guard tells apart.
    const { events } = await client.workflow.getHandle(planted.workflowId, later).fetchHistory();
    const started = events?.[0]?.workflowExecutionStartedEventAttributes;
    expect({ from: started?.continuedExecutionRunId, cron: started?.cronSchedule }).toEqual({
      from: expect.any(String),
      cron: '@every 1s',
    });
  });

  it("refuses a forged abort naming a run's ledger, whose id a planter took first with books naming the run", async () => {
    const client = await testClient();
    const name = uniqueQueue('planted-abort');
    const victimId = uniqueQueue('planted-victim');
    const planted = await plant(name, [victimId]);
    // Its outcome is the first test's; the run comes after it either way, as it would after a planter.
    await outcome(planted.workflowId, planted.firstExecutionRunId);
    const { gate, command } = gated();
    const handle = await startRun(
      governed('planted-abort', name, [{ key: 'work', executor: { kind: 'shell', command } }]),
      worker.taskQueue,
      victimId,
    );
    await waitFor('the task to hold a ledger slot', async () => (await ledgerStatus(client, name)).inFlight === 1);
    await handle.signal(abortRunSignal, {
      actor: ledgerActor(name),
      reason: 'session-budget-exhausted',
      requestId: `${ledgerActor(name)}@1`,
    });
    const answer = await waitFor('the run to answer the forged signal', async () => {
      const [rejected] = await eventsOf(handle, 'control:rejected');
      const [aborted] = await eventsOf(handle, 'run:abort-requested');
      return (rejected || aborted) && { rejected: rejected ?? null, aborted: aborted ?? null };
    });
    console.log(`[ledger-abort-proof] forged abort after a plant: ${JSON.stringify(answer)}`);
    expect(answer).toEqual({
      rejected: expect.objectContaining({ message: 'abortRun', reason: 'forbidden', actor: ledgerActor(name) }),
      aborted: null,
    });
    expect(String(answer.rejected?.detail)).toContain(`ledger ${name} has aborted no run`);

    writeFileSync(gate, 'go');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    expect(await eventsOf(handle, 'run:abort-requested')).toEqual([]);
  });
});

/** The failure a closed run ended with (its closing event's), or null when it did not fail. */
async function failureOf(handle: WorkflowHandle) {
  const { events } = await handle.fetchHistory();
  const last = events?.at(-1);
  const failure =
    last?.workflowExecutionFailedEventAttributes?.failure ??
    last?.workflowExecutionContinuedAsNewEventAttributes?.failure;
  const info = failure?.applicationFailureInfo;
  return failure ? { type: info?.type, nonRetryable: info?.nonRetryable, message: failure.message } : null;
}
