import { describe, expect, it } from 'vitest';
import { ProofSigner } from '../../src/activities/gateway/signing';
import { PROOF_NONCE_TTL_MS, askAnchor, type AttemptMessage } from '../../src/activities/interface';
import type { AttemptProof } from '../../src/contract';
import { SIGNATURE_FRESH_MS } from '../../src/workflows/signed-proofs';
import { SignedAsks, carriedAsks, type Ask } from '../../src/workflows/signed-asks';

const ask: Ask = { workflowId: 'run-1', key: 'writer', fencingToken: 3, message: 'sendMessage' };
const request = { from: 'writer', fencingToken: 3, to: 'reader', body: { n: 1 } };
const anchor = askAnchor('sendMessage', request);
let drawn = 0;
const nonce = () => `ask-nonce-${String(drawn++).padStart(10, '0')}`;

/** What the worker's gateway attaches to a message it sends as the attempt (gateway.ts `send`). */
const signed = (signer: ProofSigner, what: Ask = ask, on = anchor, queue = 'worker-q'): AttemptProof =>
  signer.signedAsk(
    { queue, nonce: nonce() },
    { workflowId: what.workflowId, taskKey: what.key, fencingToken: what.fencingToken },
    what.message,
    on,
  );

/** A run whose round trip confirmed `signer`'s key for its queue with one message. */
function confirmedFor(signer: ProofSigner): SignedAsks {
  const asks = new SignedAsks();
  asks.confirmed(signed(signer), ask, anchor);
  return asks;
}

describe("an attempt's messages taken on its worker's signature (src/workflows/signed-asks.ts)", () => {
  it('takes a fresh signature under the key its queue confirmed, once, and only for the message and request it signs', () => {
    const worker = new ProofSigner();
    const proof = signed(worker);
    // No key confirmed in this run yet: the round trip.
    expect(new SignedAsks().take(proof, ask, anchor, Date.now())).toBe(false);
    const asks = confirmedFor(worker);
    const others: Array<[Ask, string]> = [
      // Another body under the same proof: its anchor is another.
      [ask, askAnchor('sendMessage', { ...request, body: { n: 2 } })],
      [{ ...ask, message: 'addTasks' as AttemptMessage }, anchor],
      [{ ...ask, key: 'reader' }, anchor],
      [{ ...ask, fencingToken: 4 }, anchor],
      [{ ...ask, workflowId: 'run-2' }, anchor],
    ];
    for (const [other, on] of others) expect(asks.take(proof, other, on, Date.now())).toBe(false);
    expect(asks.take(proof, ask, anchor, Date.now())).toBe(true);
    // The same message sent again (copied from history) is a copy while remembered.
    expect(asks.taken(proof.nonce)).toBe(true);
    expect(asks.take(proof, ask, anchor, Date.now())).toBe(false);
    // Another queue's proof with this worker's key and signature is not that queue's.
    expect(asks.take({ ...signed(worker), queue: 'other-q' }, ask, anchor, Date.now())).toBe(false);
  });

  it("refuses a forger's key, a ledger update's or a result's signature, and a stale one, to the round trip", () => {
    const worker = new ProofSigner();
    const asks = confirmedFor(worker);
    const forger = new ProofSigner();
    expect(asks.take(signed(forger), ask, anchor, Date.now())).toBe(false);
    expect(asks.take({ ...signed(forger), signingKey: worker.publicKey }, ask, anchor, Date.now())).toBe(false);
    // What the same worker signed for a ledger or as a result does not pass for a message (tagged apart).
    const ledger = worker.signedLedger({ queue: 'worker-q', nonce: nonce() }, ask.workflowId, ask.message, anchor);
    expect(asks.take(ledger, ask, anchor, Date.now())).toBe(false);
    const result = worker.signed(
      { queue: 'worker-q', nonce: nonce() },
      { workflowId: ask.workflowId, taskKey: ask.key, fencingToken: ask.fencingToken },
      anchor,
    );
    expect(asks.take({ ...result, signedAt: Date.now() }, ask, anchor, Date.now())).toBe(false);
    const old = signed(worker);
    expect(asks.take(old, ask, anchor, old.signedAt! + SIGNATURE_FRESH_MS + 1)).toBe(false);
    expect(asks.take({ ...old, signedAt: Date.now() + 5_000 }, ask, anchor, Date.now() + 5_000)).toBe(false);
    expect(asks.take(old, ask, anchor, old.signedAt! + SIGNATURE_FRESH_MS)).toBe(true);
  });

  it('remembers the nonce of a message the round trip confirmed: a copy sent while fresh is not taken on its signature', () => {
    const worker = new ProofSigner();
    const asks = new SignedAsks();
    const first = signed(worker);
    asks.confirmed(first, ask, anchor);
    expect(asks.taken(first.nonce)).toBe(true);
    expect(asks.take(first, ask, anchor, Date.now())).toBe(false);
  });

  it('carries the nonces over continue-as-new, never the keys, and takes only its own shape', () => {
    const worker = new ProofSigner();
    const asks = confirmedFor(worker);
    const proof = signed(worker);
    const at = proof.signedAt!;
    expect(asks.take(proof, ask, anchor, at)).toBe(true);
    const input = JSON.parse(JSON.stringify({ continued: {}, asks: asks.carried(at + 1_000) }));
    const next = new SignedAsks(carriedAsks(input));
    expect(next.taken(proof.nonce)).toBe(true);
    // Keys are confirmed again in each execution: a planted `continued` input cannot name one.
    expect(next.take(signed(worker), ask, anchor, Date.now())).toBe(false);
    // Once its worker has forgotten it (60 s, plus the clocks' bound), the nonce is not carried on.
    const later = new SignedAsks(carriedAsks({ asks: next.carried(at + PROOF_NONCE_TTL_MS + SIGNATURE_FRESH_MS) }));
    expect(later.taken(proof.nonce)).toBe(false);
    expect(carriedAsks({ continued: {} })).toBeUndefined();
    expect(carriedAsks({ asks: { nonces: [['short', 1]] } })).toBeUndefined();
    expect(carriedAsks({ asks: { nonces: 'x' } })).toBeUndefined();
  });
});
