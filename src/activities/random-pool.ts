import { randomBytes } from 'node:crypto';

/** Random `size`-byte values, 128 per draw from the system's CSPRNG; each value is handed out once. */
export class RandomPool {
  private pool = Buffer.alloc(0);
  private at = 0;

  constructor(private readonly size: number) {}

  next(): Buffer {
    if (this.at + this.size > this.pool.length) {
      this.pool = randomBytes(this.size * 128);
      this.at = 0;
    }
    this.at += this.size;
    return this.pool.subarray(this.at - this.size, this.at);
  }
}
