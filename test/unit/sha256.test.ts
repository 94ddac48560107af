import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HashChain } from '../../src/activities/hash-chain';
import { CHAIN_LIMITS, follows } from '../../src/agent/chain';
import { fromHex, sha256, toHex } from '../../src/agent/sha256';

const text = (s: string) => toHex(sha256(new TextEncoder().encode(s)));

describe('the workflow-safe SHA-256', () => {
  it('gives the FIPS 180-4 answers', () => {
    expect(text('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(text('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(text('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(text('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it("answers as node:crypto's does for every length around the block edges, and for random data", () => {
    for (let n = 0; n < 200; n++) {
      const data = randomBytes(n);
      expect(toHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
    const big = randomBytes(70_001);
    expect(toHex(sha256(big))).toBe(createHash('sha256').update(big).digest('hex'));
    expect(toHex(fromHex('00ff10ab'))).toBe('00ff10ab');
  });
});

describe("an attempt's hash chain", () => {
  it('hands out each link once, each a preimage of the one before, down to the anchor', () => {
    const chain = new HashChain(600);
    let head = chain.anchor;
    for (let i = 0; i < 600; i++) {
      const link = chain.next();
      expect(createHash('sha256').update(Buffer.from(link, 'hex')).digest('hex')).toBe(head);
      expect(follows(head, link)).toBe(true);
      expect(follows(link, head)).toBe(false);
      head = link;
    }
    expect(() => chain.next()).toThrow('used up');
  });

  it(`resumes past up to ${CHAIN_LIMITS.window} lost links, not further`, () => {
    const chain = new HashChain(100);
    const links = Array.from({ length: CHAIN_LIMITS.window + 1 }, () => chain.next());
    expect(follows(chain.anchor, links[CHAIN_LIMITS.window - 1])).toBe(true);
    expect(follows(chain.anchor, links[CHAIN_LIMITS.window])).toBe(false);
    expect(follows(undefined, links[0])).toBe(false);
    expect(follows(chain.anchor, 'A'.repeat(64))).toBe(false);
  });
});
