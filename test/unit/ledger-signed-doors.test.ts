import { describe, expect, it, vi } from 'vitest';
import type { Client } from '@temporalio/client';
import { AttemptGateway } from '../../src/activities/gateway/gateway';
import { ProofSigner } from '../../src/activities/gateway/signing';
import { PROOF_NONCE_TTL_MS } from '../../src/activities/interface';
import type { AttemptProof } from '../../src/contract';
import { MAX_SIGNED_NONCES, SIGNATURE_FRESH_MS, SignedLedgerDoors, carriedDoors } from '../../src/ledger/signed-doors';

const update = { ledgerWorkflowId: 'teamrun-ledger-shared', call: 'batch', digest: 'd'.repeat(64) };
let drawn = 0;
const nonce = () => `nonce-${String(drawn++).padStart(12, '0')}`;
const signed = (signer: ProofSigner, queue = 'worker-q', what = update) =>
  signer.signedLedger({ queue, nonce: nonce() }, what.ledgerWorkflowId, what.call, what.digest);

/** A ledger that confirmed `signer`'s key for its queue (as the round trip's yes does). */
function confirmedFor(signer: ProofSigner): SignedLedgerDoors {
  const doors = new SignedLedgerDoors();
  doors.confirmed(signed(signer), update);
  return doors;
}

describe("a ledger's updates taken on their worker's signature (src/ledger/signed-doors.ts)", () => {
  it('takes a fresh signature under the key its queue confirmed, once, and only for the update it was made for', () => {
    const worker = new ProofSigner();
    const proof = signed(worker);
    expect(proof.signedAt).toBeGreaterThan(0);
    // No key confirmed yet: the round trip.
    expect(new SignedLedgerDoors().take(proof, update, Date.now())).toBe(false);
    const doors = confirmedFor(worker);
    for (const other of [
      { ...update, call: 'renewSlots' },
      { ...update, digest: 'e'.repeat(64) },
      { ...update, ledgerWorkflowId: 'teamrun-ledger-other' },
    ]) {
      expect(doors.take(proof, other, Date.now())).toBe(false);
    }
    expect(doors.take(proof, update, Date.now())).toBe(true);
    // The same update sent again (copied from history) is a copy while remembered.
    expect(doors.taken(proof.nonce)).toBe(true);
    expect(doors.take(proof, update, Date.now())).toBe(false);
    // Another queue's proof with this worker's key and signature is not that queue's.
    expect(doors.take({ ...signed(worker), queue: 'other-q' }, update, Date.now())).toBe(false);
  });

  it("refuses a forger's key, a signature moved in time, and a stale or early one, to the round trip", () => {
    const worker = new ProofSigner();
    const doors = confirmedFor(worker);
    const forger = new ProofSigner();
    expect(doors.take(signed(forger), update, Date.now())).toBe(false);
    expect(doors.take({ ...signed(forger), signingKey: worker.publicKey }, update, Date.now())).toBe(false);
    // A forger's key never becomes the queue's: its proof's signature does not hold under the worker's key.
    doors.confirmed({ ...signed(forger), signingKey: worker.publicKey }, update);
    expect(doors.take(signed(worker), update, Date.now())).toBe(true);
    // signedAt is signed: moved to look fresh, the signature no longer holds.
    const old = signed(worker);
    const later = old.signedAt! + SIGNATURE_FRESH_MS + 1;
    expect(doors.take(old, update, later)).toBe(false);
    expect(doors.take({ ...old, signedAt: later }, update, later)).toBe(false);
    expect(doors.take(old, update, old.signedAt! - SIGNATURE_FRESH_MS - 1)).toBe(false);
    expect(doors.take(old, update, old.signedAt! + SIGNATURE_FRESH_MS)).toBe(true);
  });

  it('remembers a taken nonce for as long as its worker would confirm it, across continue-as-new', () => {
    const worker = new ProofSigner();
    const doors = confirmedFor(worker);
    const proof = signed(worker);
    const at = proof.signedAt!;
    expect(doors.take(proof, update, at)).toBe(true);
    // Carried: the key (a new proof is taken) and the nonce (the copy is refused).
    const carried = carriedDoors(JSON.parse(JSON.stringify(doors.snapshot(at + PROOF_NONCE_TTL_MS))));
    const next = new SignedLedgerDoors(carried);
    expect(next.taken(proof.nonce)).toBe(true);
    expect(next.take(signed(worker), update, Date.now())).toBe(true);
    // Once the worker has forgotten it (its 60 s, plus the clocks' freshness bound), the ledger may too.
    const forgotten = new SignedLedgerDoors(next.snapshot(at + PROOF_NONCE_TTL_MS + SIGNATURE_FRESH_MS));
    expect(forgotten.taken(proof.nonce)).toBe(false);
    // Malformed carried doors are none: every update is confirmed by the round trip.
    expect(carriedDoors({ keys: [['q', 1]], nonces: [] })).toBeUndefined();
    expect(carriedDoors('x')).toBeUndefined();
  });

  it('confirms by the round trip when its memory of nonces is full, and takes signatures again once it empties', () => {
    const worker = new ProofSigner();
    const doors = confirmedFor(worker);
    const now = Date.now();
    const proofs: AttemptProof[] = [];
    // The confirmation's own nonce is remembered too (a copy of it sent while fresh is not taken on its signature).
    for (let i = 1; i < MAX_SIGNED_NONCES; i += 1) proofs.push(signed(worker));
    for (const proof of proofs) expect(doors.take(proof, update, now)).toBe(true);
    const over = signed(worker);
    expect(doors.take(over, update, now)).toBe(false);
    expect(doors.taken(over.nonce)).toBe(false);
    // 90 s on, all of them are forgettable: a signature made then is taken again.
    const later = Math.max(...proofs.map((p) => p.signedAt!)) + PROOF_NONCE_TTL_MS + SIGNATURE_FRESH_MS;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect(doors.take(signed(worker), update, later)).toBe(true);
      expect(doors.taken(proofs[0]!.nonce)).toBe(false);
    } finally {
      clock.mockRestore();
    }
  });
});

describe("the worker's answer to a ledger asking about a signed update", () => {
  it('signs what it proves for a ledger, and says yes to its nonce with its own key only', async () => {
    const gateway = await AttemptGateway.start({ client: {} as Client, queue: 'worker-q', secrets: [] });
    try {
      const ask = (proof: AttemptProof, signingKey?: string) =>
        gateway.confirm({
          workflowId: update.ledgerWorkflowId,
          key: update.call,
          fencingToken: 0,
          message: 'ledger',
          anchor: update.digest,
          nonce: proof.nonce,
          ...(signingKey ? { signingKey } : {}),
        });
      const proof = gateway.proveLedger(update.ledgerWorkflowId, update.call, update.digest);
      const doors = new SignedLedgerDoors();
      doors.confirmed(proof, update);
      expect(doors.take(gateway.proveLedger(update.ledgerWorkflowId, 'batch', update.digest), update, Date.now())).toBe(
        true,
      );
      expect(ask(proof, new ProofSigner().publicKey)).toBe(false);
      const second = gateway.proveLedger(update.ledgerWorkflowId, update.call, update.digest);
      expect(ask(second, second.signingKey)).toBe(true);
      // Once: a copy asked about again is refused.
      expect(ask(second, second.signingKey)).toBe(false);
    } finally {
      await gateway.close();
    }
  });
});
