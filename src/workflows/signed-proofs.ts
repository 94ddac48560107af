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
import { ed25519 } from '@noble/curves/ed25519';
import { signedProofText, type ConfirmAttemptRequest } from '../activities/interface';
import type { AttemptProof } from '../contract';

/** Runs recorded before they checked signatures confirmed every result with its worker (replay). */
export const SIGNED_COMPLETIONS = 'teamrun-signed-completions';

type Request = Omit<ConfirmAttemptRequest, 'nonce' | 'signingKey'>;

/** Per run (its TeamRun): the signing key each worker queue confirmed as its own. */
const confirmedKeys = new WeakMap<object, Map<string, string>>();

/** Whether the proof is signed under the key its queue's worker confirmed, and the signature holds for `request`. */
export function signedByConfirmedKey(run: object, proof: AttemptProof, request: Request): boolean {
  const key = confirmedKeys.get(run)?.get(proof.queue);
  return key !== undefined && key === proof.signingKey && signatureHolds(proof, request);
}

/** The worker on the proof's queue said yes to this request and its key: the key is the queue's, if it signed. */
export function keyConfirmed(run: object, proof: AttemptProof, request: Request): void {
  if (!proof.signingKey || !signatureHolds(proof, request)) return;
  let keys = confirmedKeys.get(run);
  if (!keys) confirmedKeys.set(run, (keys = new Map()));
  keys.set(proof.queue, proof.signingKey);
}

function signatureHolds(proof: AttemptProof, request: Request): boolean {
  if (!proof.signingKey || !proof.signature) return false;
  return signatureValid(signedProofText(request, proof.nonce), proof.signature, proof.signingKey);
}

/** Whether `signature` (base64url) is the Ed25519 signature of `text` under `key` (raw, base64url). */
export function signatureValid(text: string, signature: string, key: string): boolean {
  try {
    return ed25519.verify(base64url(signature), new TextEncoder().encode(text), base64url(key), { zip215: false });
  } catch {
    return false;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bytes of unpadded base64url (the schema checked the alphabet and the length). */
function base64url(text: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const char of text) {
    value = (value << 6) | ALPHABET.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (value >> bits) & 0xff;
    }
  }
  return bytes;
}
