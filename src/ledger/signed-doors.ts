/**
 * A ledger takes its runs' updates on their worker's signature (issue 42): each update a run's worker sends carries
 * a one-time nonce, and confirming it with the worker by a round trip (an activity on the worker's stop queue) made
 * a run's first block wait about a second, and its first growth as long again, on a busy ledger.
 *
 * The first signed update from a worker queue is confirmed as before, with its key: the worker answers yes only for a
 * nonce it drew for this ledger, update and request, and a key that is its own. From then on the ledger takes that
 * queue's updates on their signature (`signedLedgerText`: ledger, update, request digest, nonce, signing time) by
 * the rules of `SignedDoors` (src/workflows/signed-proofs.ts), which a run's asks follow too: fresh, under the key its
 * queue confirmed, a nonce not remembered. Continue-as-new carries the keys and the nonces remembered. Workflow code.
 */
import { z } from 'zod';
import type { AttemptProof } from '../contract';
import { AttemptProofSchema } from '../plan/requests/caller';
import {
  CarriedNoncesSchema,
  MAX_SIGNING_KEYS,
  SignedDoors,
  type SignedDoorsSnapshot,
} from '../workflows/signed-proofs';
import { signedLedgerText } from './doors';

export {
  MAX_SIGNED_NONCES,
  MAX_SIGNING_KEYS,
  SIGNATURE_FRESH_MS,
  type SignedDoorsSnapshot,
} from '../workflows/signed-proofs';

/** Ledgers recorded before they took signed updates confirmed each one with its worker (replay). */
export const LEDGER_SIGNED_PATCH = 'teamrun-ledger-signed';

/** The update a proof was drawn for. */
export interface SignedUpdate {
  ledgerWorkflowId: string;
  call: string;
  digest: string;
}

/** A ledger's doors (src/workflows/signed-proofs.ts's `SignedDoors`), for the update a proof was drawn for. */
export class SignedLedgerDoors {
  private readonly doors: SignedDoors;

  constructor(carried?: SignedDoorsSnapshot) {
    this.doors = new SignedDoors(carried);
  }

  taken(nonce: string): boolean {
    return this.doors.taken(nonce);
  }

  take(proof: AttemptProof, update: SignedUpdate, now: number): boolean {
    return this.doors.take(proof, text(proof, update), now);
  }

  confirmed(proof: AttemptProof, update: SignedUpdate): void {
    this.doors.confirmed(proof, text(proof, update));
  }

  snapshot(now: number): SignedDoorsSnapshot {
    return this.doors.snapshot(now);
  }
}

/** The carried doors' shape and bounds: what the proofs' own schema allows of each queue, key and nonce. */
const CarriedDoorsSchema = z.object({
  keys: z.array(z.tuple([AttemptProofSchema.shape.queue, z.string().max(64)])).max(MAX_SIGNING_KEYS),
  nonces: CarriedNoncesSchema,
});

/** Carried doors only from the ledger's own continue-as-new, and only in their shape (else none: round trips). */
export function carriedDoors(value: unknown): SignedDoorsSnapshot | undefined {
  const parsed = CarriedDoorsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const text = (proof: AttemptProof, update: SignedUpdate) => (signedAt: number) =>
  signedLedgerText({ nonce: proof.nonce, signedAt }, update.ledgerWorkflowId, update.call, update.digest);
