/**
 * The signing keys a run's worker queues confirmed, and the confirmation of one in flight (issue 42). A run confirms a
 * worker queue's key by a round trip with the first signed result (signed-proofs.ts) and with the first signed message
 * (signed-asks.ts) it takes from that queue; each confirmation says the same: the worker on this queue holds this
 * key. Kept apart, a run on a shared ledger confirmed the same key twice, and every result or message that arrived
 * while the first confirmation was in flight made a round trip of its own: in bench section 12's runs, whose twenty
 * first attempts start, ask and finish together, 80-118 round trips a round where 10 confirm every key.
 *
 * From patch `teamrun-shared-proof-keys` on, a run takes a result or a message under a key either kind confirmed, and
 * one that arrives while its queue's key is being confirmed, under that key, waits for the confirmation and is then
 * checked on its signature (a forger's copy of the key still cannot sign; it goes to the round trip, as before).
 * Workflow memory only: keys are never carried across continue-as-new. Workflow code.
 */
import type { AttemptProof } from '../contract';

/** Runs recorded before they shared keys and waited for a key's confirmation in flight asked each time (replay). */
export const SHARED_PROOF_KEYS = 'teamrun-shared-proof-keys';

/** Worker queues whose key a workflow remembers, for each kind (the oldest confirmed first forgotten). */
export const MAX_SIGNING_KEYS = 256;

/** One run's keys: confirmed by a result, confirmed by a message, and the confirmations in flight, by queue. */
export interface ProofKeys {
  results: Map<string, string>;
  asks: Map<string, string>;
  confirming: Map<string, { key: string; done: Promise<void> }>;
}

const books = new WeakMap<object, ProofKeys>();

/** The run's keys (`run`: its TeamRun, or any object standing for one run). */
export function proofKeysOf(run: object): ProofKeys {
  let book = books.get(run);
  if (!book) books.set(run, (book = { results: new Map(), asks: new Map(), confirming: new Map() }));
  return book;
}

/** Remembers `key` as `queue`'s in `keys`, the newest last, at most `MAX_SIGNING_KEYS` queues. */
export function rememberKey(keys: Map<string, string>, queue: string, key: string): void {
  keys.delete(queue);
  keys.set(queue, key);
  if (keys.size > MAX_SIGNING_KEYS) keys.delete(keys.keys().next().value!);
}

/**
 * Runs `roundTrip`, which confirms the proof's key (and remembers it before it resolves); meanwhile the queue's other
 * requests under that key may wait for it (`keyBeingConfirmed`). Only a proof whose signature holds under its own
 * key (`signs`) is waited for: anyone can copy a worker's public key from history, nobody else can sign under it, so a
 * forger cannot hold a worker's requests back. Others, and one whose queue has a confirmation in flight already, run
 * their round trip alone.
 */
export async function confirmingKey<T>(
  run: object,
  proof: AttemptProof,
  signs: boolean,
  roundTrip: () => Promise<T>,
): Promise<T> {
  const { confirming } = proofKeysOf(run);
  const key = proof.signingKey;
  if (!key || !signs || confirming.has(proof.queue)) return roundTrip();
  let end = () => {};
  const entry = { key, done: new Promise<void>((resolve) => (end = resolve)) };
  confirming.set(proof.queue, entry);
  try {
    return await roundTrip();
  } finally {
    confirming.delete(proof.queue);
    end();
  }
}

/**
 * The confirmation in flight of the proof's queue and key, to wait for; null when none is. Synchronous, so that a
 * request finding none starts its own confirmation (`confirmingKey`) before another request of the same activation
 * looks: that one then waits for it.
 */
export function keyBeingConfirmed(run: object, proof: AttemptProof): Promise<void> | null {
  const pending = proofKeysOf(run).confirming.get(proof.queue);
  return pending && proof.signingKey && pending.key === proof.signingKey ? pending.done : null;
}
