import { describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { AttemptGateway } from '../../src/activities/gateway/gateway';
import { ProofSigner } from '../../src/activities/gateway/signing';
import { keyConfirmed, signedByConfirmedKey } from '../../src/workflows/signed-proofs';

const identity = { workflowId: 'run-1', taskKey: 'build', fencingToken: 3 };
const request = {
  workflowId: 'run-1',
  key: 'build',
  fencingToken: 3,
  message: 'complete' as const,
  anchor: 'a'.repeat(64),
};
const proofOf = (signer: ProofSigner, nonce = 'n'.repeat(32), queue = 'worker-q') =>
  signer.signed({ queue, nonce }, identity, request.anchor);

describe("a run's check of its workers' signed results (src/workflows/signed-proofs.ts)", () => {
  it('takes a signature only under the key that queue confirmed, and only for the request it was made for', () => {
    const run = {};
    const worker = new ProofSigner();
    const proof = proofOf(worker);
    expect(proof.signingKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(proof.signature).toMatch(/^[A-Za-z0-9_-]{86}$/);
    // Nothing confirmed yet: asked of the worker.
    expect(signedByConfirmedKey(run, proof, request)).toBe(false);
    keyConfirmed(run, proof, request);
    expect(signedByConfirmedKey(run, proofOf(worker, 'm'.repeat(32)), request)).toBe(true);
    // Another result, token, task or run: the signature does not hold.
    expect(signedByConfirmedKey(run, proof, { ...request, anchor: 'b'.repeat(64) })).toBe(false);
    expect(signedByConfirmedKey(run, proof, { ...request, fencingToken: 4 })).toBe(false);
    expect(signedByConfirmedKey(run, proof, { ...request, key: 'deploy' })).toBe(false);
    expect(signedByConfirmedKey(run, proof, { ...request, workflowId: 'run-2' })).toBe(false);
    // Another run trusts nothing it did not confirm itself.
    expect(signedByConfirmedKey({}, proof, request)).toBe(false);
  });

  it("refuses a forger's own key naming the worker's queue, and a signature copied under the worker's key", () => {
    const run = {};
    const worker = new ProofSigner();
    keyConfirmed(run, proofOf(worker), request);
    const forger = new ProofSigner();
    expect(signedByConfirmedKey(run, proofOf(forger), request)).toBe(false);
    const copied = { ...proofOf(forger), signingKey: worker.publicKey };
    expect(signedByConfirmedKey(run, copied, request)).toBe(false);
    // A forger's key never becomes the queue's: keyConfirmed is called only after the worker said yes to it, and a
    // proof whose signature does not hold is not kept even then.
    keyConfirmed(run, copied, request);
    expect(signedByConfirmedKey(run, proofOf(worker, 'k'.repeat(32)), request)).toBe(true);
  });
});

describe("the worker's answer to a run asking about a signed proof", () => {
  it('says yes to the nonce it drew with its own key, and no with any other key', async () => {
    const gateway = await AttemptGateway.start({ client: {} as Client, queue: 'worker-q', secrets: [] });
    try {
      const opened = gateway.open({ ...identity, attempt: 1, leaseId: 'run-1/build/3', holder: 'teammate-1' });
      const asked = (proof: ReturnType<typeof opened.completionProof>, signingKey?: string) =>
        gateway.confirm({ ...request, nonce: proof.nonce, ...(signingKey ? { signingKey } : {}) });
      const first = opened.completionProof(request.anchor);
      expect(signedByConfirmedKey({}, first, request)).toBe(false);
      expect(asked(first, new ProofSigner().publicKey)).toBe(false);
      const second = opened.completionProof(request.anchor);
      expect(asked(second, second.signingKey)).toBe(true);
      // The nonce is taken once.
      expect(asked(second, second.signingKey)).toBe(false);
    } finally {
      await gateway.close();
    }
  });
});
