import { describe, expect, it, onTestFinished } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { ProofSigner } from '../../src/activities/gateway/signing';
import type { AttemptProof } from '../../src/contract';
import { ledgerStatus } from '../../src/ledger/client';
import { ledgerRequestDigest } from '../../src/ledger/doors';
import { ledgerWorkflowId } from '../../src/plan/requests/ledger';
import { startRun, testClient } from '../helpers/env';
import { ledgerForTest, updateCodeOf, workerForSuite } from '../helpers/scenario';

interface Sent {
  name: string;
  input: Record<string, unknown> & { proof?: AttemptProof };
}

/**
 * A ledger takes a run's updates on its worker's signature once it confirmed that worker's key (issue 42,
 * src/ledger/signed-doors.ts). Attacked as someone with update rights on the namespace who reads the ledger's
 * history: every update a run's worker sent is there, with its proof, key and signature.
 */
describe("a ledger's updates taken on the worker's signature (shared dev server)", () => {
  const worker = workerForSuite();

  it('takes a run through with fewer confirmations than updates, and refuses a copy, an edit and a forger', async () => {
    const client = await testClient();
    const id = await ledgerForTest('signed', { maxTokens: 10_000, maxConcurrent: 4 }, worker.taskQueue, onTestFinished);
    const run = await startRun(
      {
        name: 'signed',
        lease: { ttlMs: 2_000 },
        budget: { ledger: id },
        tasks: ['a', 'b', 'c', 'd'].map((key, i) => ({
          key,
          executor: { kind: 'shell', command: `sleep ${1 + i}; echo '::teamrun-usage::{"outputTokens":${10 + i}}'` },
        })),
      },
      worker.taskQueue,
    );
    expect(await run.result()).toMatchObject({ status: 'succeeded' });
    const before = await ledgerStatus(client, id);
    expect(before).toMatchObject({ inFlight: 0, used: { tokens: 46 } });

    const handle = client.workflow.getHandle(ledgerWorkflowId(id));
    const events = (await handle.fetchHistory()).events ?? [];
    const updates: Sent[] = events
      .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest)
      .filter((r) => r?.input?.args?.payloads?.length)
      .map((r) => ({
        name: r!.input!.name!,
        input: defaultPayloadConverter.fromPayload(r!.input!.args!.payloads![0]) as Sent['input'],
      }));
    // The ledger's creation (`configure`) is the test's own; every other update is the run's worker's, with its proof.
    const sent = updates.filter((s) => s.name !== 'configure');
    const signed = sent.filter((s) => s.input.proof?.signature);
    const confirmations = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'confirmAttemptRequest',
    ).length;
    console.log(
      `[ledger-signed] ${sent.length} updates from the run's worker (${sent.map((s) => s.name).join(', ')}), ` +
        `${signed.length} signed, ${confirmations} confirmed by a round trip`,
    );
    expect(signed.length).toBe(sent.length);
    // The worker's first update (its registration) is confirmed with its key; later ones are taken on signature.
    expect(sent.length).toBeGreaterThanOrEqual(4);
    expect(confirmations).toBeGreaterThanOrEqual(1);
    expect(confirmations).toBeLessThanOrEqual(2);

    const send = (name: string, input: unknown) => updateCodeOf(handle.executeUpdate(name, { args: [input] }));
    type Item = { call: string; request: Record<string, unknown> };
    const settles = (s: Sent) => (s.input.items as Item[] | undefined)?.some((i) => i.call === 'settle');
    const settling = signed.filter((s) => s.name === 'batch' && settles(s)).at(-1)!;
    const cheaper = (settling.input.items as Item[]).map((i) =>
      i.call === 'settle' ? { ...i, request: { ...i.request, usage: { outputTokens: 0 } } } : i,
    );
    const proof = settling.input.proof!;
    const refused = {
      // Sent again as it is in history: its nonce was taken.
      copy: await send(settling.name, settling.input),
      // Its settlement made cheaper, its proof kept with a nonce never taken: the signature does not hold, and the
      // worker says no to the round trip.
      edited: await send(settling.name, {
        ...settling.input,
        items: cheaper,
        proof: { ...proof, nonce: 'edited-0000000000000' },
      }),
      // A forger's own key and signature, naming the worker's queue: not the key the worker confirmed.
      forged: await send('renewSlots', forgedRenewal(id, proof.queue)),
    };
    console.log(`[ledger-signed] refused: ${JSON.stringify(refused)}`);
    expect(refused).toEqual({ copy: 'forbidden', edited: 'forbidden', forged: 'forbidden' });
    const after = await ledgerStatus(client, id);
    expect(after.used).toEqual(before.used);
    expect(after.counters).toEqual(before.counters);
  });
});

describe("a ledger's memory of the nonces it took, across its continue-as-new (shared dev server)", () => {
  const worker = workerForSuite();

  it('refuses a copy of an update its previous execution took on its signature', async () => {
    const client = await testClient();
    const id = await ledgerForTest('signed-can', { maxTokens: 100_000 }, worker.taskQueue, onTestFinished, {
      continueAsNewAfterEvents: 100,
    });
    const tasks = Array.from({ length: 16 }, (_, i) => ({
      key: `t${i}`,
      executor: { kind: 'shell', command: `echo '::teamrun-usage::{"outputTokens":10}'` },
    }));
    const run = await startRun({ name: 'signed-can', teammates: 4, budget: { ledger: id }, tasks }, worker.taskQueue);
    expect(await run.result()).toMatchObject({ status: 'succeeded' });

    const continued = [];
    for await (const execution of client.workflow.list({ query: `WorkflowId = "${ledgerWorkflowId(id)}"` }))
      if (execution.status.name === 'CONTINUED_AS_NEW') continued.push(execution);
    expect(continued.length).toBeGreaterThanOrEqual(1);
    // The last settling batch an execution that handed over took (a signature, not a round trip: its nonce is still
    // one the worker would confirm for 60 s), sent again to the execution running now.
    const taken: Sent[] = [];
    for (const execution of continued) {
      const events = (await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory()).events;
      for (const e of events ?? []) {
        const request = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest;
        if (request?.input?.name !== 'batch') continue;
        const input = defaultPayloadConverter.fromPayload(request.input.args!.payloads![0]) as Sent['input'];
        if (input.proof?.signature) taken.push({ name: 'batch', input });
      }
    }
    const before = await ledgerStatus(client, id);
    const handle = client.workflow.getHandle(ledgerWorkflowId(id));
    const copy = taken.at(-1)!;
    const refused = await updateCodeOf(handle.executeUpdate(copy.name, { args: [copy.input] }));
    console.log(`[ledger-signed] ${continued.length} handovers, ${taken.length} signed batches; the copy: ${refused}`);
    expect(refused).toBe('forbidden');
    expect((await ledgerStatus(client, id)).counters).toEqual(before.counters);
  });
});

function forgedRenewal(id: string, queue: string) {
  const request = { attemptIds: [`${id}-x/task/1`] };
  const proof = new ProofSigner().signedLedger(
    { queue, nonce: 'forged-nonce-000000000000' },
    ledgerWorkflowId(id),
    'renewSlots',
    ledgerRequestDigest('renewSlots', request),
  );
  return { ...request, proof };
}
