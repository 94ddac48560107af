/**
 * An attempt's hash chain, the verifier's side (workflow code). At its start an attempt's worker
 * picks a secret s and sends the anchor H^n(s) once, with its gateway's proof (`attempt`), which the
 * verifier confirms with that worker; each later write carries the link before the last one taken:
 * H(link) == head, then head := link. History shows only links already used, and the next link is
 * a preimage of the last: nobody who reads history can compute it. The worker's side is
 * src/activities/hash-chain.ts.
 */
import { CHAIN_LINK } from '../plan/requests/agent';
import { fromHex, sha256, toHex } from './sha256';

export const CHAIN_LIMITS = {
  /**
   * Links in one attempt's chain. An agent attempt writes its journal at most about 2,400 times
   * (200 turns, 1,000 tool calls: two writes each, plus open and finish) and signals its steps at
   * most once per step: this leaves room for both with a margin, and costs the worker ~30 ms to make.
   */
  length: 8_192,
  /**
   * How far past the head a link may be: the writes between were lost on their way (a timed-out
   * update, a signal that failed), and the chain resumes. A forger still needs a preimage.
   */
  window: 16,
} as const;

/** Whether `value` has the shape of a link or an anchor: 32 bytes as lowercase hex. */
export function isLink(value: unknown): value is string {
  return typeof value === 'string' && CHAIN_LINK.test(value);
}

/** Whether `link` follows `head`: H^j(link) == head for some j in 1..CHAIN_LIMITS.window. */
export function follows(head: string | null | undefined, link: unknown): link is string {
  if (!head || !isLink(link)) return false;
  let value = fromHex(link);
  for (let j = 1; j <= CHAIN_LIMITS.window; j++) {
    value = sha256(value);
    if (toHex(value) === head) return true;
  }
  return false;
}
