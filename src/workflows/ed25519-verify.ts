/**
 * Ed25519 verification in workflow code (pure JavaScript: @noble/curves, @noble/hashes). `signatureValid` is
 * @noble/curves' own `verify` (RFC 8032, not ZIP 215). `trustedSignatureValid` checks the same equation for a key the
 * workflow already trusts (one a worker confirmed as its own), with that key's point decoded once and its window table
 * precomputed: a run on a shared ledger checks two signatures per attempt (its message and its result), and noble's
 * `verify` took 3.6-5.3 ms each on this machine's 2 cores, 0.85 ms so (issue 42, bench section 12). Only trusted keys
 * are cached, so a forger's keys cannot fill the cache or make the workflow build tables for them.
 */
import { ed25519 } from '@noble/curves/ed25519';
import { bytesToNumberLE, concatBytes } from '@noble/curves/utils';
import { sha512 } from '@noble/hashes/sha2';

const Point = ed25519.Point;
const ORDER = Point.Fn.ORDER;
/** Trusted keys a workflow isolate keeps decoded with their tables (the least recently used dropped first). */
const CACHED_KEYS_AT_MOST = 8;
/** The tables' window: 6 bits, about 1,400 points a key (8 bits took no less time, 4 bits 1.6 times as long). */
const WINDOW = 6;

type KeyPoint = { point: ReturnType<typeof Point.fromBytes>; bytes: Uint8Array } | null;
const keyPoints = new Map<string, KeyPoint>();

/** Whether `signature` (base64url) is the Ed25519 signature of `text` under `key` (raw, base64url). */
export function signatureValid(text: string, signature: string, key: string): boolean {
  try {
    return ed25519.verify(base64url(signature), new TextEncoder().encode(text), base64url(key), { zip215: false });
  } catch {
    return false;
  }
}

/**
 * The same answer as `signatureValid`, for a key the workflow trusts: [8][S]B = [8]R + [8][k]A with k the SHA-512 of
 * R, A and the text, S below the group's order, A and R canonical encodings and A not of small order, as noble checks.
 */
export function trustedSignatureValid(text: string, signature: string, key: string): boolean {
  const A = keyPoint(key);
  const sig = base64url(signature);
  if (!A || sig.length !== 64) return false;
  const s = bytesToNumberLE(sig.subarray(32));
  if (s >= ORDER) return false;
  try {
    const R = Point.fromBytes(sig.subarray(0, 32), false);
    const k = bytesToNumberLE(sha512(concatBytes(R.toBytes(), A.bytes, new TextEncoder().encode(text)))) % ORDER;
    return R.add(A.point.multiplyUnsafe(k)).subtract(Point.BASE.multiplyUnsafe(s)).clearCofactor().is0();
  } catch {
    return false;
  }
}

function keyPoint(key: string): KeyPoint {
  const cached = keyPoints.get(key);
  if (cached !== undefined) {
    keyPoints.delete(key);
    keyPoints.set(key, cached);
    return cached;
  }
  let made: KeyPoint = null;
  try {
    const bytes = base64url(key);
    const point = bytes.length === 32 ? Point.fromBytes(bytes, false) : null;
    if (point && !point.isSmallOrder()) made = { point: point.precompute(WINDOW, false), bytes: point.toBytes() };
  } catch {
    made = null;
  }
  keyPoints.set(key, made);
  if (keyPoints.size > CACHED_KEYS_AT_MOST) keyPoints.delete(keyPoints.keys().next().value!);
  return made;
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
