/**
 * The worker's signature of what its attempts answer (results, failures), of what they ask their run (messages) and of
 * its runs' ledger updates: an Ed25519 key pair made when the gateway starts and kept in memory only. A run (a ledger)
 * confirms the public key with this worker once (on its stop queue), then takes its signed answers, messages (updates)
 * without asking again (src/workflows/signed-proofs.ts, signed-asks.ts, src/ledger/signed-doors.ts). The private key
 * never leaves the process.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { AttemptProof } from '../../contract';
import { signedLedgerText } from '../../ledger/doors';
import { signedAskText, signedProofText, type AttemptIdentity, type AttemptMessage } from '../interface';

export class ProofSigner {
  /** The public key, raw, in base64url (43 characters). */
  readonly publicKey: string;
  private readonly privateKey: KeyObject;

  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    this.publicKey = publicKey.export({ format: 'jwk' }).x as string;
    this.privateKey = privateKey;
  }

  /** The completion proof with this worker's key and its signature of the attempt's answer (`anchor`). */
  signed(
    proof: AttemptProof,
    identity: Pick<AttemptIdentity, 'workflowId' | 'taskKey' | 'fencingToken'>,
    anchor: string,
  ): AttemptProof {
    const { workflowId, taskKey: key, fencingToken } = identity;
    const text = signedProofText({ workflowId, key, fencingToken, message: 'complete', anchor }, proof.nonce);
    return { ...proof, signingKey: this.publicKey, signature: this.sign(text) };
  }

  /** A ledger update's proof with this worker's key, the time and its signature of the update (`signedLedgerText`). */
  signedLedger(proof: AttemptProof, ledgerWorkflowId: string, call: string, digest: string): AttemptProof {
    const signedAt = Date.now();
    const text = signedLedgerText({ nonce: proof.nonce, signedAt }, ledgerWorkflowId, call, digest);
    return { ...proof, signingKey: this.publicKey, signature: this.sign(text), signedAt };
  }

  /** A message's proof with this worker's key, the time and its signature of the message (`signedAskText`). */
  signedAsk(
    proof: AttemptProof,
    identity: Pick<AttemptIdentity, 'workflowId' | 'taskKey' | 'fencingToken'>,
    message: AttemptMessage,
    anchor: string,
  ): AttemptProof {
    const { workflowId, taskKey: key, fencingToken } = identity;
    const signedAt = Date.now();
    const text = signedAskText({ workflowId, key, fencingToken, message, anchor }, { nonce: proof.nonce, signedAt });
    return { ...proof, signingKey: this.publicKey, signature: this.sign(text), signedAt };
  }

  private sign(text: string): string {
    return sign(null, Buffer.from(text), this.privateKey).toString('base64url');
  }
}
