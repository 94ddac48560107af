import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { defaultPayloadConverter } from '@temporalio/common';
import { ProofSigner } from '../../src/activities/gateway/signing';
import { askAnchor } from '../../src/activities/interface';
import type { AttemptProof } from '../../src/contract';
import type { TeamPlanInput } from '../../src/plan/schema';
import { waitFor } from '../helpers/env';
import { runForTest, updateCodeOf, workerForTest } from '../helpers/scenario';

const root = path.resolve(__dirname, '..', '..');
const CLI = `${process.execPath} ${path.join(root, 'bin/teamrun.js')}`;

interface Sent {
  name: string;
  input: Record<string, unknown> & { attempt?: AttemptProof };
}

/**
 * A run takes its attempts' messages on their worker's signature once its worker confirmed its key (signed-asks.ts).
 * Attacked as someone with update rights on the namespace, nobody's operator, who reads the run's history: every
 * message a task sent is there, with its proof, key and signature.
 */
describe("an attempt's messages taken on its worker's signature (shared dev server)", () => {
  it('confirms one message by the round trip and takes the rest on signature; refuses a copy, an edit and a forger', async () => {
    const worker = await workerForTest();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-signed-asks-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const [sent, go] = [path.join(dir, 'sent'), path.join(dir, 'go')];
    const sends = [1, 2, 3, 4, 5].map((n) => `${CLI} send --to reader '{"n":${n}}' >/dev/null`).join(' && ');
    const plan: TeamPlanInput = {
      name: 'signed-asks',
      teammates: 2,
      tasks: [
        // Sends five messages one after another, then stays running (its proofs stay current) until told to end.
        {
          key: 'writer',
          executor: {
            kind: 'shell',
            timeoutMs: 180_000,
            command: `${sends} && touch ${sent} && while [ ! -e ${go} ]; do sleep 0.2; done`,
          },
        },
        {
          key: 'reader',
          dependsOn: ['writer'],
          // Its mail arrives with its start, in the TEAMRUN_INBOX file.
          executor: { kind: 'shell', command: 'echo "::teamrun-output::$(cat "$TEAMRUN_INBOX")"', timeoutMs: 60_000 },
        },
      ],
    };
    const handle = await runForTest(plan, worker);
    await waitFor('the writer to send its five messages', async () => existsSync(sent), 120_000);

    const events = (await handle.fetchHistory()).events ?? [];
    const messages: Sent[] = events
      .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest)
      .filter((r) => r?.input?.name === 'sendMessage')
      .map((r) => ({
        name: r!.input!.name!,
        input: defaultPayloadConverter.fromPayload(r!.input!.args!.payloads![0]) as Sent['input'],
      }));
    const confirmations = events.filter(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'confirmAttemptRequest',
    ).length;
    console.log(`[signed-asks] ${messages.length} messages sent, ${confirmations} confirmed by a round trip`);
    expect(messages).toHaveLength(5);
    expect(messages.every((m) => m.input.attempt?.signature && m.input.attempt.signedAt)).toBe(true);
    // The worker's first message is confirmed with its key; the other four are taken on its signature.
    expect(confirmations).toBe(1);

    const last = messages.at(-1)!;
    const proof = last.input.attempt!;
    const { attempt: _proof, ...request } = last.input;
    const send = (input: unknown) => updateCodeOf(handle.executeUpdate('sendMessage', { args: [input] }));
    const forger = new ProofSigner();
    const edited = { ...request, body: { n: 6 } };
    const refused = {
      // Sent again as it is in history: its nonce was taken.
      copy: await send(last.input),
      // Another body under its proof, with a nonce never taken: the signature does not hold for it, and the worker
      // says no to the round trip.
      edited: await send({ ...edited, attempt: { ...proof, nonce: 'edited-00000000000000' } }),
      // A forger's own key and signature of the edited message, naming the worker's queue: not the key it confirmed.
      forged: await send({
        ...edited,
        attempt: forger.signedAsk(
          { queue: proof.queue, nonce: 'forged-00000000000000' },
          { workflowId: handle.workflowId, taskKey: 'writer', fencingToken: request.fencingToken as number },
          'sendMessage',
          askAnchor('sendMessage', edited),
        ),
      }),
    };
    console.log(`[signed-asks] refused: ${JSON.stringify(refused)}`);
    expect(refused).toEqual({ copy: 'forbidden', edited: 'forbidden', forged: 'forbidden' });

    writeFileSync(go, '');
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    // The reader got the writer's five messages, none of the three sent again.
    const reader = result.tasks.find((t) => t.key === 'reader')!;
    expect((reader.output as Array<{ body: { n: number } }>).map((m) => m.body.n)).toEqual([1, 2, 3, 4, 5]);
  });

  it("confirms a worker's key once for a governed run's messages and results, sent together", async () => {
    const worker = await workerForTest();
    const senders = 6;
    const plan: TeamPlanInput = {
      name: 'signed-asks-together',
      teammates: senders,
      // A governed run takes no result as anybody's word: each is confirmed, or signed under a confirmed key.
      governance: { operators: ['ops'] },
      tasks: [
        // Six attempts start together, each sends a message at once and ends: six messages and six results arrive
        // while the worker's key is first being confirmed.
        ...Array.from({ length: senders }, (_, n) => ({
          key: `sender-${n}`,
          executor: {
            kind: 'shell' as const,
            command: `${CLI} send --to sink '{"n":${n}}' >/dev/null`,
            timeoutMs: 60_000,
          },
        })),
        {
          key: 'sink',
          dependsOn: Array.from({ length: senders }, (_, n) => `sender-${n}`),
          executor: { kind: 'shell', command: 'echo "::teamrun-output::$(cat "$TEAMRUN_INBOX")"', timeoutMs: 60_000 },
        },
      ],
    };
    const handle = await runForTest(plan, worker);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const sink = result.tasks.find((t) => t.key === 'sink')!;
    const got = (sink.output as Array<{ body: { n: number } }>).map((m) => m.body.n).sort();
    expect(got).toEqual([0, 1, 2, 3, 4, 5]);
    const events = (await handle.fetchHistory()).events ?? [];
    const confirmed = events
      .map((e) => e.activityTaskScheduledEventAttributes)
      .filter((a) => a?.activityType?.name === 'confirmAttemptRequest')
      .map((a) => (defaultPayloadConverter.fromPayload(a!.input!.payloads![0]) as { message: string }).message);
    console.log(
      `[signed-asks] ${senders} messages and ${senders + 1} results; confirmed by a round trip: ${confirmed.join(', ')}`,
    );
    // One round trip confirms the worker's key; the messages sent meanwhile wait for it, and every result is taken
    // under the key the messages confirmed (proof-keys.ts).
    expect(confirmed).toEqual(['sendMessage']);
  });
});
