/**
 * An attempt's messages to its run (`sendMessage`, `readInbox`, `addTasks`, `extendReservation`, `linkRun`) taken on
 * its worker's signature. Each one was confirmed by a round trip, an activity on the worker's stop queue: in a clean
 * four-task agents run, 20 of them, about half of its 255 history events, 10-187 ms each (median 17).
 *
 * The worker's gateway signs each message it sends as an attempt (`signedAskText`: run, task, fencing token, message,
 * `askAnchor` of the request as sent, nonce, signing time). The first signed message from a worker queue in this
 * execution is confirmed by the round trip, anchor and key included: the worker answers yes only for a nonce it drew
 * for this attempt, message and request, and a key that is its own. From then on the run takes that queue's messages on
 * their signature by `SignedDoors`' rules (src/workflows/signed-proofs.ts): fresh, under the key its queue confirmed,
 * a nonce not remembered. A message copied from history and sent again (the same body, or another) is refused as a copy
 * while remembered, then goes to the round trip, where the worker has forgotten its nonce and answers no.
 *
 * Continue-as-new carries the nonces remembered, never the keys: a run's `continued` input can be planted by anyone who
 * may start it, and a planted nonce only makes the run ask more. Workflow code.
 */
import { z } from 'zod';
import { signedAskText, type AttemptMessage } from '../activities/interface';
import type { AttemptProof } from '../contract';
import { CarriedNoncesSchema, SignedDoors, type SignedText } from './signed-proofs';

/** Runs recorded before they took signed messages confirmed each one with its worker (replay). */
export const SIGNED_ASKS = 'teamrun-signed-asks';

/** The message as its run checks it: who it says it is from, and what. */
export interface Ask {
  workflowId: string;
  key: string;
  fencingToken: number;
  message: AttemptMessage;
}

/** What continue-as-new carries of a run's signed messages: the nonces it remembers, with until when. */
export interface CarriedAsks {
  nonces: [nonce: string, until: number][];
}

export class SignedAsks {
  private readonly doors: SignedDoors;

  /**
   * `keys`: where the run keeps the keys its messages confirmed, and the keys its results confirmed, which it also
   * trusts from patch `teamrun-shared-proof-keys` on (proof-keys.ts); absent, keys of these doors' own.
   */
  constructor(
    carried?: CarriedAsks,
    keys?: { keys: Map<string, string>; also: () => ReadonlyMap<string, string> | null },
  ) {
    this.doors = new SignedDoors(carried, keys);
  }

  /** A nonce remembered (taken on its signature, or confirmed): the message is a copy. */
  taken(nonce: string): boolean {
    return this.doors.taken(nonce);
  }

  /** Whether the message, bound to its request by `anchor`, is taken on its signature at `now`. */
  take(proof: AttemptProof, ask: Ask, anchor: string, now: number): boolean {
    return this.doors.take(proof, textOf(proof, ask, anchor), now);
  }

  /** Whether the message's signature holds under the key its proof names (trusted or not). */
  signs(proof: AttemptProof, ask: Ask, anchor: string): boolean {
    return this.doors.signs(proof, textOf(proof, ask, anchor));
  }

  /** The worker confirmed the message by the round trip: its key is its queue's, its nonce remembered. */
  confirmed(proof: AttemptProof, ask: Ask, anchor: string): void {
    this.doors.confirmed(proof, textOf(proof, ask, anchor));
  }

  /** What continue-as-new carries at `now`. */
  carried(now: number): CarriedAsks {
    return { nonces: this.doors.snapshot(now).nonces };
  }
}

const CarriedAsksSchema = z.object({
  nonces: CarriedNoncesSchema,
});

/** The nonces a run's continue-as-new carried (`asks` beside `continued`), in their shape and bounds; else none. */
export function carriedAsks(input: unknown): CarriedAsks | undefined {
  if (typeof input !== 'object' || input === null || !('asks' in input)) return undefined;
  const parsed = CarriedAsksSchema.safeParse(input.asks);
  return parsed.success ? parsed.data : undefined;
}

const textOf =
  (proof: AttemptProof, ask: Ask, anchor: string): SignedText =>
  (signedAt) =>
    signedAskText({ ...ask, anchor }, { nonce: proof.nonce, signedAt });
