import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporal } from '@temporalio/proto';
import { ApplicationFailure, defaultPayloadConverter } from '@temporalio/common';
import { loadRunReport } from '../../src/report';
import { startRun, testClient, testConfig, waitFor } from '../helpers/env';
import {
  allTaskViews,
  announcedWorker,
  eventsOf,
  ledgerForTest,
  workerForTest,
  type OnTestFinished,
} from '../helpers/scenario';
import { ledgerStatus } from '../../src/ledger/client';
import { ProofSigner } from '../../src/activities/gateway/signing';

const output = (text: string) => `echo '::teamrun-output::"${text}"'`;
const { PENDING_ACTIVITY_STATE_STARTED } = temporal.api.enums.v1.PendingActivityState;

/**
 * A run of one task, `slow`, whose attempts print `real` once the test releases them (a file; at most 60 s): so the
 * first attempt is still running whatever the test sends meanwhile, however loaded the machine.
 */
async function runHeldTask(
  name: string,
  governed: boolean,
  onTestFinished: OnTestFinished,
  on: { taskQueue?: string; ledger?: string; quick?: boolean } = {},
) {
  const taskQueue = on.taskQueue ?? (await workerForTest({ config: testConfig() }, onTestFinished)).taskQueue;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'forged-completion-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const release = path.join(dir, 'release');
  const held = `i=0; while [ ! -f '${release}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; ${output('real')}`;
  const handle = await startRun(
    {
      name,
      ...(governed ? { governance: { operators: ['ops'] } } : {}),
      ...(on.ledger ? { budget: { ledger: on.ledger } } : {}),
      tasks: [
        { key: 'slow', executor: { kind: 'shell', command: held } },
        // Beside it, a task whose result the worker signs and the run confirms with its key (signed-proofs.ts).
        ...(on.quick ? [{ key: 'quick', executor: { kind: 'shell', command: output('quick') } }] : []),
      ],
    },
    taskQueue,
  );
  return { handle, release: () => writeFileSync(release, '') };
}

/** The run's first attempt of `key`, once a worker started it (the server's view). */
async function started(workflowId: string, activityId: string): Promise<void> {
  const client = await testClient();
  await waitFor(`${activityId} started`, async () => {
    const described = await client.workflowService.describeWorkflowExecution({
      namespace: 'default',
      execution: { workflowId },
    });
    const pending = described.pendingActivities ?? [];
    return pending.some((a) => a.activityId === activityId && a.state === PENDING_ACTIVITY_STATE_STARTED) || null;
  });
}

describe("an attempt's completion sent by someone else (RespondActivityTaskCompletedById)", () => {
  it('a governed run does not take it: the attempt is settled as lost and leased again, and the real output wins', async ({
    onTestFinished,
  }) => {
    const { handle, release } = await runHeldTask('forged-completion', true, onTestFinished);
    await started(handle.workflowId, 'slow#1');
    // Anyone with write rights on the namespace: the attempt's ids are in history.
    const client = await testClient();
    await client.activity.complete({ workflowId: handle.workflowId, activityId: 'slow#1' }, { output: 'FORGED' });
    release();
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 2 });
    const unproven = await eventsOf(handle, 'attempt:unproven-result');
    expect(unproven.map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, 'it carries no proof of its worker'],
    ]);
    // The report, read from history, tells it as the run settled it: a lost lease, then the real attempt.
    const report = await loadRunReport(client, handle.workflowId);
    expect(report.tasks[0].attempts.map((a) => [a.activityId, a.outcome, a.detail])).toEqual([
      ['slow#1', 'lease-expired', 'its worker did not confirm the result (sent by someone else, or its worker gone)'],
      ['slow#2', 'succeeded', null],
    ]);
    expect(report.leases.map((l) => [l.key, l.fencingToken, l.next?.fencingToken])).toEqual([['slow', 1, 2]]);
  });

  it('a governed run does not take a failure sent by someone else: its attempt is settled as lost, not failed for good', async ({
    onTestFinished,
  }) => {
    const { handle, release } = await runHeldTask('forged-failure', true, onTestFinished);
    await started(handle.workflowId, 'slow#1');
    // RespondActivityTaskFailedById: a final failure, with a usage a run would charge from a failure's evidence.
    const client = await testClient();
    const forged = ApplicationFailure.create({
      message: 'FORGED',
      type: 'Forged',
      nonRetryable: true,
      details: [{ workerIdentity: 'forger', usage: { inputTokens: 900_000_000, outputTokens: 0 } }],
    });
    await client.activity.fail({ workflowId: handle.workflowId, activityId: 'slow#1' }, forged);
    release();
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 2 });
    expect(result.budget.used.tokens).toBeLessThan(1_000);
    expect((await eventsOf(handle, 'attempt:unproven-result')).map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, 'it carries no proof of its worker'],
    ]);
    // The report, read from history, tells it as the run settled it, without the forged usage.
    const report = await loadRunReport(client, handle.workflowId);
    expect(report.tasks[0].attempts.map((a) => [a.activityId, a.outcome, a.detail, a.usage])).toEqual([
      [
        'slow#1',
        'lease-expired',
        'its worker did not confirm the failure (sent by someone else, or its worker gone)',
        null,
      ],
      ['slow#2', 'succeeded', null, null],
    ]);
    // The worker named is the one the server saw start the attempt, not the one the forged evidence names.
    expect(report.tasks[0].attempts[0].worker).toMatch(/\S/);
    expect(report.tasks[0].attempts[0].worker).not.toBe('forger');
  });

  it("a run on a shared ledger, without operators, does not take a forged usage: the ledger's other runs go on", async ({
    onTestFinished,
  }) => {
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const ledger = await ledgerForTest('forged-usage', { maxTokens: 10_000 }, worker.taskQueue, onTestFinished);
    const on = { taskQueue: worker.taskQueue, ledger };
    const target = await runHeldTask('forged-usage', false, onTestFinished, on);
    const other = await runHeldTask('forged-usage-other', false, onTestFinished, on);
    await started(target.handle.workflowId, 'slow#1');
    await started(other.handle.workflowId, 'slow#1');
    // Whoever completes an attempt of one run by its ids would charge the ledger all of it, and its cascade abort
    // would stop every run on it.
    const client = await testClient();
    const forged = { output: 'FORGED', usage: { inputTokens: 1_000_000_000, outputTokens: 0 } };
    await client.activity.complete({ workflowId: target.handle.workflowId, activityId: 'slow#1' }, forged);
    await waitFor('the forged result to be settled', async () => {
      const settled = await eventsOf(target.handle, 'attempt:unproven-result');
      return settled.length > 0 || (await target.handle.status()).stats.succeeded > 0 || null;
    });
    target.release();
    other.release();
    for (const run of [target, other]) expect((await run.handle.result()).status).toBe('succeeded');
    expect((await allTaskViews(target.handle))[0]).toMatchObject({ output: 'real', attempts: 2 });
    const status = await ledgerStatus(client, ledger);
    expect(status.state).toBe('open');
    expect(status.used.tokens).toBeLessThan(10_000);
    expect((await eventsOf(target.handle, 'attempt:unproven-result')).map((e) => e.why)).toEqual([
      'it carries no proof of its worker',
    ]);
  });

  it('a forged result with a made-up proof naming the real worker is refused by that worker: settled as lost', async ({
    onTestFinished,
  }) => {
    const { handle, release } = await runHeldTask('forged-proof', true, onTestFinished);
    // The worker's stop queue, as the attempt announced it to its run (after its first second): public in history.
    const announced = await announcedWorker(handle);
    const client = await testClient();
    const proof = { queue: announced.queue, nonce: 'made-up-nonce-0123456789abcdef' };
    await client.activity.complete(
      { workflowId: handle.workflowId, activityId: 'slow#1' },
      { output: 'FORGED', proof },
    );
    release();
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 2 });
    const why = `worker queue ${announced.queue} did not confirm it`;
    expect((await eventsOf(handle, 'attempt:unproven-result')).map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, why],
    ]);
    const report = await loadRunReport(client, handle.workflowId);
    expect(report.tasks[0].attempts.map((a) => [a.activityId, a.outcome])).toEqual([
      ['slow#1', 'lease-expired'],
      ['slow#2', 'succeeded'],
    ]);
  });

  it('a result that is not an object, or whose proof is malformed, settles its attempt without stopping the run', async ({
    onTestFinished,
  }) => {
    const client = await testClient();
    // A run without operators takes results as they come: null is a completion without output.
    const plain = await runHeldTask('forged-null', false, onTestFinished);
    await started(plain.handle.workflowId, 'slow#1');
    await client.activity.complete({ workflowId: plain.handle.workflowId, activityId: 'slow#1' }, null);
    plain.release();
    expect((await plain.handle.result()).status).toBe('succeeded');
    // A governed run: a proof naming a 2,000-character queue is neither asked on nor recorded.
    const governed = await runHeldTask('forged-malformed', true, onTestFinished);
    await started(governed.handle.workflowId, 'slow#1');
    const proof = { queue: 'q'.repeat(2_000), nonce: 'made-up-nonce-0123456789abcdef' };
    await client.activity.complete({ workflowId: governed.handle.workflowId, activityId: 'slow#1' }, { proof });
    governed.release();
    expect((await governed.handle.result()).status).toBe('succeeded');
    expect(await allTaskViews(governed.handle)).toMatchObject([{ key: 'slow', output: 'real', attempts: 2 }]);
    const unproven = await eventsOf(governed.handle, 'attempt:unproven-result');
    expect(unproven.map((e) => [e.key, e.fencingToken, e.why])).toEqual([['slow', 1, 'its proof is malformed']]);
  });

  it("a governed run takes its worker's own results and failures, each confirmed once", async ({ onTestFinished }) => {
    const worker = await workerForTest({ config: testConfig() }, onTestFinished);
    const handle = await startRun(
      {
        name: 'proven-completion',
        governance: { operators: ['ops'] },
        awaitAdjudication: false,
        retry: { maxAttempts: 2, backoffMs: 100 },
        tasks: [
          { key: 'a', executor: { kind: 'shell', command: output('from a') } },
          { key: 'b', dependsOn: ['a'], executor: { kind: 'noop' } },
          { key: 'c', executor: { kind: 'shell', command: 'echo "broken on purpose" >&2; exit 3' } },
          { key: 'd', executor: { kind: 'not-a-kind-this-worker-has' } },
        ],
      },
      worker.taskQueue,
    );
    const result = await handle.result();
    expect(result.status).toBe('failed');
    const views = await allTaskViews(handle);
    expect(views.map((t) => [t.key, t.status, t.attempts])).toEqual([
      ['a', 'succeeded', 1],
      ['b', 'succeeded', 1],
      ['c', 'failed', 2],
      ['d', 'failed', 1],
    ]);
    expect(views[0].output).toBe('from a');
    // The worker's own failures, as it sent them: retried once, and final for a kind it does not run.
    expect(views[2].lastError).toContain('broken on purpose');
    expect(views[3].lastError).toContain('executor kind "not-a-kind-this-worker-has" is not enabled');
    expect(await eventsOf(handle, 'attempt:unproven-result')).toEqual([]);
    // The first answers were confirmed with the worker on its stop queue, with its signing key; once one came back
    // yes, the run took the rest of that worker's answers on their signatures (signed-proofs.ts): 5 answers, fewer
    // round trips, every one of them with the worker's key.
    const history = await handle.fetchHistory();
    const asked = (history.events ?? [])
      .map((e) => e.activityTaskScheduledEventAttributes)
      .filter((a) => a?.activityType?.name === 'confirmAttemptRequest')
      .map((a) => defaultPayloadConverter.fromPayload(a!.input!.payloads![0]) as { signingKey?: string });
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked.length).toBeLessThan(5);
    expect(new Set(asked.map((a) => a.signingKey)).size).toBe(1);
    expect(asked[0].signingKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("a forged result signed under another key, or under the worker's key with another answer's signature, is refused", async ({
    onTestFinished,
  }) => {
    const { handle, release } = await runHeldTask('forged-signed', true, onTestFinished, { quick: true });
    const { workflowId } = handle;
    await started(workflowId, 'slow#1');
    await waitFor('quick to be taken', async () =>
      (await allTaskViews(handle)).some((t) => t.key === 'quick' && t.status === 'succeeded'),
    );
    // Public in history: the worker's stop queue, and quick's result with its proof (the worker's key, a signature).
    const { queue } = await announcedWorker(handle);
    const events = (await handle.fetchHistory()).events ?? [];
    const quickScheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'quick#1');
    const quickDone = events.find(
      (e) => String(e.activityTaskCompletedEventAttributes?.scheduledEventId) === String(quickScheduled?.eventId),
    );
    const quick = defaultPayloadConverter.fromPayload(
      quickDone!.activityTaskCompletedEventAttributes!.result!.payloads![0],
    ) as { proof: { signingKey: string; signature: string } };
    const forged = { output: 'FORGED' };
    const anchor = createHash('sha256').update(JSON.stringify(forged)).digest('hex');
    const nonce = 'made-up-nonce-0123456789abcdef';
    const client = await testClient();
    // A forger's own key pair, its signature true to the forged result, naming the worker's queue.
    const own = new ProofSigner().signed({ queue, nonce }, { workflowId, taskKey: 'slow', fencingToken: 1 }, anchor);
    await client.activity.complete({ workflowId, activityId: 'slow#1' }, { ...forged, proof: own });
    await started(workflowId, 'slow#2');
    // The worker's confirmed key, with the signature of quick's result.
    const copied = { queue, nonce, signingKey: quick.proof.signingKey, signature: quick.proof.signature };
    await client.activity.complete({ workflowId, activityId: 'slow#2' }, { ...forged, proof: copied });
    await started(workflowId, 'slow#3');
    release();
    expect((await handle.result()).status).toBe('succeeded');
    const [slow] = await allTaskViews(handle);
    expect(slow).toMatchObject({ key: 'slow', status: 'succeeded', output: 'real', attempts: 3 });
    const why = `worker queue ${queue} did not confirm it`;
    expect((await eventsOf(handle, 'attempt:unproven-result')).map((e) => [e.key, e.fencingToken, e.why])).toEqual([
      ['slow', 1, why],
      ['slow', 2, why],
    ]);
  });
});
