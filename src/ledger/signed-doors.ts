/**
 * A ledger takes its runs' updates on their worker's signature (issue 42): each update a run's worker sends carries
 * a one-time nonce, and confirming it with the worker by a round trip (an activity on the worker's stop queue) made
 * a run's first block wait about a second, and its first growth as long again, on a busy ledger.
 *
 * The first signed update from a worker queue is confirmed as before, with its key: the worker answers yes only for a
 * nonce it drew for this ledger, update and request, and a key that is its own. From then on the ledger takes that
 * queue's updates on their signature (`signedLedgerText`: ledger, update, request digest, nonce, signing time), if
 *
 * - the signature holds under the key the queue's worker confirmed,
 * - the worker signed it at most `SIGNATURE_FRESH_MS` before or after the ledger's own time, and
 * - its nonce is not one the ledger took before.
 *
 * A nonce taken on its signature is remembered until the worker can no longer confirm it (`PROOF_NONCE_TTL_MS` after
 * it was drawn, allowing for clocks as far apart as the freshness bound), and continue-as-new carries what is
 * remembered. So an update copied from history and sent again is refused while it is fresh, and later goes to the
 * round trip, where the worker has forgotten its nonce and answers no. Anything that does not check (an unknown key, a
 * stale signature, a full memory) is confirmed by the round trip, as every update was before. Workflow code.
 */
import { z } from 'zod';
import type { AttemptProof } from '../contract';
import { AttemptProofSchema } from '../plan/requests/caller';
import { PROOF_NONCE_TTL_MS } from '../activities/interface';
import { signatureValid } from '../workflows/signed-proofs';
import { signedLedgerText } from './doors';

/** Ledgers recorded before they took signed updates confirmed each one with its worker (replay). */
export const LEDGER_SIGNED_PATCH = 'teamrun-ledger-signed';
/** How far a signature's time may be from the ledger's: the update's transit and the clocks' difference together. */
export const SIGNATURE_FRESH_MS = 30_000;
/** Nonces taken on a signature that a ledger remembers at once; past it, updates are confirmed by the round trip. */
export const MAX_SIGNED_NONCES = 4_096;
/** Worker queues whose key a ledger remembers (the oldest confirmed first forgotten). */
export const MAX_SIGNING_KEYS = 256;
/** A taken nonce's memory: as long as its worker would confirm it, in the ledger's time. */
const REMEMBER_MS = PROOF_NONCE_TTL_MS + SIGNATURE_FRESH_MS;

/** What continue-as-new carries: each queue's confirmed key, and the nonces taken, with when each may be forgotten. */
export interface SignedDoorsSnapshot {
  keys: [queue: string, key: string][];
  nonces: [nonce: string, until: number][];
}

/** The update a proof was drawn for. */
export interface SignedUpdate {
  ledgerWorkflowId: string;
  call: string;
  digest: string;
}

export class SignedLedgerDoors {
  private readonly keys: Map<string, string>;
  private readonly nonces: Map<string, number>;

  constructor(carried?: SignedDoorsSnapshot) {
    this.keys = new Map(carried?.keys.slice(-MAX_SIGNING_KEYS));
    this.nonces = new Map(carried?.nonces.slice(-MAX_SIGNED_NONCES));
  }

  /** A nonce this ledger took on its signature and still remembers: the update is a copy. */
  taken(nonce: string): boolean {
    return this.nonces.has(nonce);
  }

  /** Whether the update is taken on its signature at `now`; a taken nonce is remembered. */
  take(proof: AttemptProof, update: SignedUpdate, now: number): boolean {
    const { signingKey, signature, signedAt, queue, nonce } = proof;
    if (!signingKey || !signature || signedAt === undefined) return false;
    if (this.keys.get(queue) !== signingKey || Math.abs(now - signedAt) > SIGNATURE_FRESH_MS) return false;
    if (this.nonces.has(nonce) || !this.room(now)) return false;
    if (!signatureValid(text(proof, signedAt, update), signature, signingKey)) return false;
    this.nonces.set(nonce, signedAt + REMEMBER_MS);
    return true;
  }

  /** The worker on the proof's queue said yes to this update and its key: the key is the queue's, if it signed. */
  confirmed(proof: AttemptProof, update: SignedUpdate): void {
    const { signingKey, signature, signedAt, queue } = proof;
    if (!signingKey || !signature || signedAt === undefined) return;
    if (!signatureValid(text(proof, signedAt, update), signature, signingKey)) return;
    this.keys.delete(queue);
    this.keys.set(queue, signingKey);
    if (this.keys.size > MAX_SIGNING_KEYS) this.keys.delete(this.keys.keys().next().value!);
  }

  /** What continue-as-new carries at `now`: the keys, and the nonces not yet forgettable. */
  snapshot(now: number): SignedDoorsSnapshot {
    this.forget(now);
    return { keys: [...this.keys], nonces: [...this.nonces] };
  }

  private room(now: number): boolean {
    if (this.nonces.size < MAX_SIGNED_NONCES) return true;
    this.forget(now);
    return this.nonces.size < MAX_SIGNED_NONCES;
  }

  private forget(now: number): void {
    for (const [nonce, until] of this.nonces) if (until <= now) this.nonces.delete(nonce);
  }
}

/** The carried doors' shape and bounds: what the proofs' own schema allows of each queue, key and nonce. */
const CarriedDoorsSchema = z.object({
  keys: z.array(z.tuple([AttemptProofSchema.shape.queue, z.string().max(64)])).max(MAX_SIGNING_KEYS),
  nonces: z.array(z.tuple([AttemptProofSchema.shape.nonce, z.number().finite()])).max(MAX_SIGNED_NONCES),
});

/** Carried doors only from the ledger's own continue-as-new, and only in their shape (else none: round trips). */
export function carriedDoors(value: unknown): SignedDoorsSnapshot | undefined {
  const parsed = CarriedDoorsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function text(proof: AttemptProof, signedAt: number, update: SignedUpdate): string {
  return signedLedgerText({ nonce: proof.nonce, signedAt }, update.ledgerWorkflowId, update.call, update.digest);
}
