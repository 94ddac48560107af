import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

/** Key and token material of a codec test, on disk and in the environment as an operator would keep it. */
export interface CodecFixture {
  dir: string;
  /** The environment the codec's variables live in (key k2, the server token). */
  env: Record<string, string>;
  token: string;
  /** Writes a temporal.yaml with these codec settings; returns its path. */
  config(name: string, codec: Record<string, unknown>, extra?: Record<string, unknown>): string;
  cleanup(): void;
}

export function codecFixture(): CodecFixture {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-codec-'));
  // Key 1 in a file beside the config (base64, as `openssl rand -base64 32` writes it); key 2 in a variable (hex).
  writeFileSync(path.join(dir, 'k1.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const token = randomBytes(24).toString('hex');
  const env = { TEAMRUN_TEST_CODEC_K2: randomBytes(32).toString('hex'), TEAMRUN_TEST_CODEC_TOKEN: token };
  return {
    dir,
    env,
    token,
    config(name, codec, extra = {}) {
      const file = path.join(dir, `${name}.yaml`);
      writeFileSync(
        file,
        stringify({ worker: { shutdownGraceMs: 500, shell: { killGraceMs: 1000 } }, codec, ...extra }),
      );
      return file;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const KEY1 = { id: 'k1', file: 'k1.key' };
export const KEY2 = { id: 'k2', env: 'TEAMRUN_TEST_CODEC_K2' };

/** Every string of a JSON document, and what each decodes to when it is base64: where plaintext could hide. */
export function readableStrings(json: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      out.push(value);
      if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0)
        out.push(Buffer.from(value, 'base64').toString('latin1'));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(json);
  return out;
}

/** The `encryption-key-id` of every encrypted payload in a `temporal workflow show -o json` document. */
export function keyIdsIn(json: unknown): Set<string> {
  const ids = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== 'object') return;
    const metadata = (value as { metadata?: Record<string, unknown> }).metadata;
    const id = metadata?.['encryption-key-id'];
    if (typeof id === 'string') ids.add(Buffer.from(id, 'base64').toString('utf8'));
    Object.values(value).forEach(walk);
  };
  walk(json);
  return ids;
}
