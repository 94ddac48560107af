/**
 * An attempt's hash chain, the worker's side: a random secret s, the anchor H^n(s) sent once with
 * the gateway's proof, then the links H^(n-1)(s), H^(n-2)(s), ... one per write (src/agent/chain.ts
 * checks them). Only checkpoints are kept (every SEGMENT-th value) and the segment in use, so a
 * chain holds ~10 KB and each link costs about one hash.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CHAIN_LIMITS } from '../agent/chain';

const SEGMENT = 256;

const hash = (value: Buffer): Buffer => createHash('sha256').update(value).digest();

export class ChainExhausted extends Error {}

export class HashChain {
  /** checkpoints[i] = H^(i*SEGMENT)(s). */
  private readonly checkpoints: Buffer[] = [];
  /** H^j(s) for j in [segmentStart, segmentStart + segment.length). */
  private segment: Buffer[] = [];
  private segmentStart = -1;
  /** The exponent of the last value handed out: the anchor's first. */
  private at: number;
  readonly anchor: string;

  constructor(private readonly length: number = CHAIN_LIMITS.length) {
    let value: Buffer = randomBytes(32);
    for (let j = 0; j < length; j++) {
      if (j % SEGMENT === 0) this.checkpoints.push(value);
      value = hash(value);
    }
    this.anchor = value.toString('hex');
    this.at = length;
  }

  /** The next link; throws ChainExhausted past the chain's length. */
  next(): string {
    if (this.at <= 0) throw new ChainExhausted(`the attempt's hash chain of ${this.length} links is used up`);
    this.at -= 1;
    const start = this.at - (this.at % SEGMENT);
    if (start !== this.segmentStart) {
      let value = this.checkpoints[start / SEGMENT];
      this.segment = [];
      for (let j = start; j < Math.min(start + SEGMENT, this.length); j++) {
        this.segment.push(value);
        value = hash(value);
      }
      this.segmentStart = start;
    }
    return this.segment[this.at - start].toString('hex');
  }
}
