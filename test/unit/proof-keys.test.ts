import { describe, expect, it } from 'vitest';
import { ProofSigner } from '../../src/activities/gateway/signing';
import { askAnchor } from '../../src/activities/interface';
import { confirmingKey, keyBeingConfirmed, proofKeysOf } from '../../src/workflows/proof-keys';
import { SignedAsks, type Ask } from '../../src/workflows/signed-asks';
import { keyConfirmed, signedByConfirmedKey } from '../../src/workflows/signed-proofs';

const identity = { workflowId: 'run-1', taskKey: 'build', fencingToken: 3 };
const result = {
  workflowId: 'run-1',
  key: 'build',
  fencingToken: 3,
  message: 'complete' as const,
  anchor: 'a'.repeat(64),
};
const ask: Ask = { workflowId: 'run-1', key: 'build', fencingToken: 3, message: 'sendMessage' };
const anchor = askAnchor('sendMessage', { from: 'build', fencingToken: 3, to: 'deploy', body: {} });
let drawn = 0;
const nonce = () => `keys-nonce-${String(drawn++).padStart(10, '0')}`;
const resultProof = (signer: ProofSigner) =>
  signer.signed({ queue: 'worker-q', nonce: nonce() }, identity, result.anchor);
const askProof = (signer: ProofSigner) =>
  signer.signedAsk({ queue: 'worker-q', nonce: nonce() }, identity, 'sendMessage', anchor);

/** A run's messages' doors as team-run.ts makes them: its keys, and its results' keys where they are shared. */
const asksOf = (run: object, shared: boolean) => {
  const keys = proofKeysOf(run);
  return new SignedAsks(undefined, { keys: keys.asks, also: () => (shared ? keys.results : null) });
};

describe("a run's workers' keys, shared by its results and its messages (src/workflows/proof-keys.ts)", () => {
  it('takes a result under a key a message confirmed, and a message under a key a result confirmed, when shared', () => {
    const worker = new ProofSigner();
    const run = {};
    const asks = asksOf(run, true);
    asks.confirmed(askProof(worker), ask, anchor);
    expect(signedByConfirmedKey(run, resultProof(worker), result)).toBe(false);
    expect(signedByConfirmedKey(run, resultProof(worker), result, true)).toBe(true);
    // Not a forger's key, shared or not.
    expect(signedByConfirmedKey(run, resultProof(new ProofSigner()), result, true)).toBe(false);

    const other = {};
    keyConfirmed(other, resultProof(worker), result);
    expect(asksOf(other, false).take(askProof(worker), ask, anchor, Date.now())).toBe(false);
    expect(asksOf(other, true).take(askProof(worker), ask, anchor, Date.now())).toBe(true);
  });

  it("lets the queue's requests under the key being confirmed wait for it, and finds the key remembered then", async () => {
    const worker = new ProofSigner();
    const run = {};
    const first = resultProof(worker);
    let answer = (_yes: boolean) => {};
    const asked = new Promise<boolean>((resolve) => (answer = resolve));
    const confirming = confirmingKey(run, first, true, async () => {
      const yes = await asked;
      if (yes) keyConfirmed(run, first, result);
      return yes;
    });
    const later = resultProof(worker);
    const waited = keyBeingConfirmed(run, later)?.then(() => signedByConfirmedKey(run, later, result));
    // A forger who copied the worker's key waits too, and finds its signature does not hold.
    const forged = { ...resultProof(new ProofSigner()), signingKey: worker.publicKey };
    const forgerWaited = keyBeingConfirmed(run, forged)?.then(() => signedByConfirmedKey(run, forged, result));
    // Another key is not the one being confirmed: nothing to wait for.
    expect(keyBeingConfirmed(run, resultProof(new ProofSigner()))).toBeNull();
    answer(true);
    expect(await confirming).toBe(true);
    expect(await waited).toBe(true);
    expect(await forgerWaited).toBe(false);
    // Over: nothing in flight.
    expect(keyBeingConfirmed(run, resultProof(worker))).toBeNull();
  });

  it('keeps no confirmation in flight for a proof whose signature does not hold: a forger holds nobody back', async () => {
    const worker = new ProofSigner();
    const run = {};
    const forged = { ...resultProof(new ProofSigner()), signingKey: worker.publicKey };
    let answer = (_yes: boolean) => {};
    const confirming = confirmingKey(run, forged, false, () => new Promise<boolean>((resolve) => (answer = resolve)));
    expect(keyBeingConfirmed(run, resultProof(worker))).toBeNull();
    answer(false);
    expect(await confirming).toBe(false);
  });
});
