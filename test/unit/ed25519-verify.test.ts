import { describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519';
import { signatureValid, trustedSignatureValid } from '../../src/workflows/ed25519-verify';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const keyPair = () => {
  const secret = ed25519.utils.randomSecretKey();
  return { secret, key: b64(ed25519.getPublicKey(secret)) };
};
const sign = (text: string, secret: Uint8Array) => b64(ed25519.sign(new TextEncoder().encode(text), secret));

/** Bytes of `text`'s base64url with byte `at` changed. */
const flipped = (text: string, at: number) => {
  const bytes = Buffer.from(text, 'base64url');
  bytes[at] ^= 0x01;
  return b64(bytes);
};

describe('Ed25519 checked with a trusted key decoded once (src/workflows/ed25519-verify.ts)', () => {
  it("answers what @noble/curves' verify answers, for valid and broken signatures", () => {
    const { secret, key } = keyPair();
    const other = keyPair();
    const cases: Array<[string, string, string]> = [];
    for (let i = 0; i < 20; i++) {
      const text = `teamrun-proof ${i} ${'x'.repeat(i * 7)}`;
      const signature = sign(text, secret);
      cases.push([text, signature, key]);
      cases.push([`${text}!`, signature, key]);
      cases.push([text, flipped(signature, i % 32), key]);
      cases.push([text, flipped(signature, 32 + (i % 32)), key]);
      cases.push([text, signature, other.key]);
      cases.push([text, sign(text, other.secret), key]);
    }
    const answers = cases.map(([text, signature, k]) => [
      signatureValid(text, signature, k),
      trustedSignatureValid(text, signature, k),
    ]);
    for (const [noble, trusted] of answers) expect(trusted).toBe(noble);
    expect(answers.filter(([noble]) => noble)).toHaveLength(20);
  });

  it('refuses S past the group order, a non-canonical R, a small-order key and a key that is no point', () => {
    const { secret, key } = keyPair();
    const text = 'teamrun-ask';
    const signature = Buffer.from(sign(text, secret), 'base64url');
    const order = ed25519.Point.Fn.ORDER;
    // S + L: the same point equation, an S noble refuses (RFC 8032 requires S < L).
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(signature[i]);
    const big = s + order;
    const malleable = Buffer.from(signature);
    for (let i = 0; i < 32; i++) malleable[32 + i] = Number((big >> BigInt(8 * i)) & 0xffn);
    // R's y at or past p (2^255 - 19): not a canonical encoding.
    const nonCanonical = Buffer.from(signature);
    nonCanonical.fill(0xff, 0, 31);
    nonCanonical[31] = 0x7f;
    // The identity point: of small order, any signature "holds" for it under a lax check.
    const identity = b64(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)));
    const zeroSig = b64(Uint8Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0)));
    const noPoint = b64(Uint8Array.from({ length: 32 }, () => 0xff));
    for (const [t, sig, k] of [
      [text, b64(malleable), key],
      [text, b64(nonCanonical), key],
      [text, zeroSig, identity],
      [text, b64(signature), noPoint],
      [text, b64(signature.subarray(0, 63)), key],
    ] as const) {
      expect([signatureValid(t, sig, k), trustedSignatureValid(t, sig, k)]).toEqual([false, false]);
    }
    expect(trustedSignatureValid(text, b64(signature), key)).toBe(true);
  });
});
