/**
 * Signed completion proofs: a run takes an attempt's result or failure without a round trip to its worker when the
 * proof carries the worker's Ed25519 signature under a key that worker confirmed (issue 42: a run on a shared ledger
 * confirmed each result with one activity on the worker's stop queue, 1,000 more activities per 1,000 attempts).
 *
 * The first signed proof from a worker queue is confirmed as before, with its key: the worker answers yes only for a
 * nonce it drew for this request and a key that is its own (src/activities/gateway/signing.ts). From then on the run
 * checks that queue's signatures itself. The private key never leaves the worker's memory; history holds only public
 * keys and signatures, so a reader of history can forge neither. A proof whose key or signature does not check is
 * asked about as before, and a worker says no to what it did not sign. Workflow code: deterministic, no Node imports
 * (the verification is @noble/curves', pure JavaScript).
 */
import { z } from 'zod';
import { PROOF_NONCE_TTL_MS, signedProofText, type ConfirmAttemptRequest } from '../activities/interface';
import type { AttemptProof } from '../contract';
import { AttemptProofSchema } from '../plan/requests/caller';
import { MAX_SIGNING_KEYS, proofKeysOf, rememberKey } from './proof-keys';
import { signatureValid, trustedSignatureValid } from './ed25519-verify';

export { MAX_SIGNING_KEYS } from './proof-keys';

/** Runs recorded before they checked signatures confirmed every result with its worker (replay). */
export const SIGNED_COMPLETIONS = 'teamrun-signed-completions';

type Request = Omit<ConfirmAttemptRequest, 'nonce' | 'signingKey'>;

/**
 * Whether the proof is signed under the key its queue's worker confirmed, and the signature holds for `request`:
 * a key a result confirmed, or (`shared`, proof-keys.ts) one a message confirmed.
 */
export function signedByConfirmedKey(run: object, proof: AttemptProof, request: Request, shared = false): boolean {
  const { results, asks } = proofKeysOf(run);
  const key = proof.signingKey;
  const known = key !== undefined && (results.get(proof.queue) === key || (shared && asks.get(proof.queue) === key));
  return known && trustedSignatureValid(signedProofText(request, proof.nonce), proof.signature ?? '', key);
}

/** The worker on the proof's queue said yes to this request and its key: the key is the queue's, if it signed. */
export function keyConfirmed(run: object, proof: AttemptProof, request: Request): void {
  if (!proof.signingKey || !signatureHolds(proof, request)) return;
  rememberKey(proofKeysOf(run).results, proof.queue, proof.signingKey);
}

/** Whether the proof's signature holds for `request` under the key it names (whoever that key is). */
export function signatureHolds(proof: AttemptProof, request: Request): boolean {
  if (!proof.signingKey || !proof.signature) return false;
  return signatureValid(signedProofText(request, proof.nonce), proof.signature, proof.signingKey);
}

/** How far a signature's time may be from the workflow's: the request's transit and the clocks' difference together. */
export const SIGNATURE_FRESH_MS = 30_000;
/** Nonces a workflow remembers at once; past it, requests are confirmed by the round trip. */
export const MAX_SIGNED_NONCES = 4_096;
/** A nonce's memory: as long as its worker would confirm it, in the workflow's time. */
const REMEMBER_MS = PROOF_NONCE_TTL_MS + SIGNATURE_FRESH_MS;

/** What continue-as-new carries: each queue's confirmed key (a ledger's) and the nonces remembered, with until when. */
export interface SignedDoorsSnapshot {
  keys: [queue: string, key: string][];
  nonces: [nonce: string, until: number][];
}

/** Remembered nonces as continue-as-new carries them, in the proofs' own bounds (a ledger's and a run's). */
export const CarriedNoncesSchema = z
  .array(z.tuple([AttemptProofSchema.shape.nonce, z.number().finite()]))
  .max(MAX_SIGNED_NONCES);

/** The text a proof's signature covers, given the signing time the proof names. */
export type SignedText = (signedAt: number) => string;

/**
 * Requests taken on their worker's signature, where each one would otherwise be confirmed by a round trip (a ledger's
 * updates, src/ledger/signed-doors.ts; a run's asks from its attempts, src/workflows/signed-asks.ts). The first signed
 * request from a worker queue is confirmed by the round trip, with its key (`confirmed`); from then on a request from
 * that queue is taken (`take`) if
 *
 * - the signature holds under the key the queue's worker confirmed,
 * - the worker signed it at most `SIGNATURE_FRESH_MS` before or after the workflow's own time, and
 * - its nonce is not one remembered: taken on a signature, or confirmed by the round trip.
 *
 * A nonce is remembered until the worker can no longer confirm it (`PROOF_NONCE_TTL_MS` after it was drawn, allowing
 * for clocks as far apart as the freshness bound), and continue-as-new carries what is remembered. So a request copied
 * from history and sent again is refused while it is fresh, and later goes to the round trip, where the worker has
 * forgotten its nonce and answers no. Anything that does not check (an unknown key, a stale signature, a full memory)
 * is confirmed by the round trip. Workflow code.
 */
export class SignedDoors {
  private readonly keys: Map<string, string>;
  private readonly nonces: Map<string, number>;
  private readonly also: () => ReadonlyMap<string, string> | null;

  constructor(
    carried?: Partial<SignedDoorsSnapshot>,
    /** Where the doors keep their keys (a run's, proof-keys.ts), and other keys they also trust, if any. */
    shared?: { keys: Map<string, string>; also: () => ReadonlyMap<string, string> | null },
  ) {
    this.keys = shared?.keys ?? new Map();
    for (const [queue, key] of carried?.keys?.slice(-MAX_SIGNING_KEYS) ?? []) this.keys.set(queue, key);
    this.nonces = new Map(carried?.nonces?.slice(-MAX_SIGNED_NONCES));
    this.also = shared?.also ?? (() => null);
  }

  /** Whether `key` is the one `queue` confirmed (here, or where the doors also look). */
  private trusts(queue: string, key: string): boolean {
    return this.keys.get(queue) === key || this.also()?.get(queue) === key;
  }

  /** A nonce remembered (taken on its signature, or confirmed): the request is a copy. */
  taken(nonce: string): boolean {
    return this.nonces.has(nonce);
  }

  /** Whether the request `text` signs is taken on its signature at `now`; a taken nonce is remembered. */
  take(proof: AttemptProof, text: SignedText, now: number): boolean {
    const { signingKey, signature, signedAt, queue, nonce } = proof;
    if (!signingKey || !signature || signedAt === undefined) return false;
    if (Math.abs(now - signedAt) > SIGNATURE_FRESH_MS || !this.trusts(queue, signingKey)) return false;
    if (this.nonces.has(nonce) || !this.room(now)) return false;
    if (!trustedSignatureValid(text(signedAt), signature, signingKey)) return false;
    this.nonces.set(nonce, signedAt + REMEMBER_MS);
    return true;
  }

  /** Whether the proof's signature holds for `text` under the key it names (trusted or not). */
  signs(proof: AttemptProof, text: SignedText): boolean {
    const { signingKey, signature, signedAt } = proof;
    return (
      !!signingKey && !!signature && signedAt !== undefined && signatureValid(text(signedAt), signature, signingKey)
    );
  }

  /**
   * The worker on the proof's queue said yes to this request and its key: the key is the queue's, if it signed; the
   * nonce is remembered too, so that a copy sent while the signature is fresh is not taken on it.
   */
  confirmed(proof: AttemptProof, text: SignedText): void {
    const { signingKey, signature, signedAt, queue, nonce } = proof;
    if (!signingKey || !signature || signedAt === undefined) return;
    if (!signatureValid(text(signedAt), signature, signingKey)) return;
    this.nonces.set(nonce, signedAt + REMEMBER_MS);
    rememberKey(this.keys, queue, signingKey);
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
