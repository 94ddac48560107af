import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import {
  AesGcmCodec,
  CodecConfigSchema,
  CodecError,
  ENCODING,
  METADATA_KEY_ID,
  codecFor,
  codecSecrets,
  loadKeys,
  parseKey,
} from '../../src/codec';
import { ConfigSchema } from '../../src/config/config';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const text = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('utf8');
const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value)!;
const value = (p: Payload) => defaultPayloadConverter.fromPayload(p);

async function codecError(promise: Promise<unknown>): Promise<CodecError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CodecError);
  return err as CodecError;
}

describe('the AES-256-GCM payload codec', () => {
  it('given a plan, when encoded, then no byte of it is readable and the key id is in the metadata', async () => {
    const codec = new AesGcmCodec(new Map([['k1', k1]]), 'k1');
    const [encoded] = await codec.encode([payload({ command: 'echo PLAINTEXT-MARKER' })]);
    expect(text(encoded.metadata!.encoding)).toBe(ENCODING);
    expect(text(encoded.metadata![METADATA_KEY_ID])).toBe('k1');
    expect(Buffer.from(encoded.data!).includes('PLAINTEXT-MARKER')).toBe(false);
    expect(Buffer.from(encoded.data!).includes('json/plain')).toBe(false);
    const [decoded] = await codec.decode([encoded]);
    expect(value(decoded)).toEqual({ command: 'echo PLAINTEXT-MARKER' });
    expect(text(decoded.metadata!.encoding)).toBe('json/plain');
  });

  it('encrypts the same value differently each time (a fresh nonce)', async () => {
    const codec = new AesGcmCodec(new Map([['k1', k1]]), 'k1');
    const [a, b] = await codec.encode([payload('same'), payload('same')]);
    expect(Buffer.from(a.data!).equals(Buffer.from(b.data!))).toBe(false);
  });

  it('after rotation, encrypts with the current key and still decrypts what the old key encrypted', async () => {
    const before = new AesGcmCodec(new Map([['k1', k1]]), 'k1');
    const after = new AesGcmCodec(
      new Map([
        ['k1', k1],
        ['k2', k2],
      ]),
      'k2',
    );
    const [old] = await before.encode([payload('old run')]);
    const [fresh] = await after.encode([payload('new run')]);
    expect(text(fresh.metadata![METADATA_KEY_ID])).toBe('k2');
    expect((await after.decode([old, fresh])).map(value)).toEqual(['old run', 'new run']);
  });

  it('refuses a payload under a key it does not have, naming the key', async () => {
    const [old] = await new AesGcmCodec(new Map([['k1', k1]]), 'k1').encode([payload('x')]);
    const err = await codecError(new AesGcmCodec(new Map([['k2', k2]]), 'k2').decode([old]));
    expect(err.code).toBe('codec-unknown-key');
    expect(err.message).toContain('key id "k1"');
    expect(err.message).toContain('it knows k2');
  });

  it('refuses an altered payload, and a payload relabelled with another key id', async () => {
    const codec = new AesGcmCodec(
      new Map([
        ['k1', k1],
        ['k2', k2],
      ]),
      'k1',
    );
    const [encoded] = await codec.encode([payload('x')]);
    const flipped = Buffer.from(encoded.data!);
    flipped[20] ^= 1;
    expect((await codecError(codec.decode([{ ...encoded, data: flipped }]))).code).toBe('codec-decrypt-failed');
    const relabelled = { ...encoded, metadata: { ...encoded.metadata, [METADATA_KEY_ID]: Buffer.from('k2') } };
    expect((await codecError(codec.decode([relabelled]))).code).toBe('codec-decrypt-failed');
  });

  it('passes payloads that were never encrypted through decode (runs from before the codec)', async () => {
    const codec = new AesGcmCodec(new Map([['k1', k1]]), 'k1');
    expect((await codec.decode([payload({ a: 1 })])).map(value)).toEqual([{ a: 1 }]);
  });
});

describe('codec keys come from files and environment variables, never from the config', () => {
  it('reads hex, base64 and raw keys', () => {
    expect(parseKey(Buffer.from(k1.toString('hex')), 'x').equals(k1)).toBe(true);
    expect(parseKey(Buffer.from(`${k1.toString('base64')}\n`), 'x').equals(k1)).toBe(true);
    const raw = Buffer.alloc(32, 0xff);
    expect(parseKey(raw, 'x').equals(raw)).toBe(true);
    expect(() => parseKey(Buffer.from('c2hvcnQ='), 'codec.keys "k1"')).toThrow(/codec.keys "k1": not a 32-byte key/);
  });

  it('loads a key file relative to the config file and a key from the environment', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-codec-'));
    writeFileSync(path.join(dir, 'k1.key'), k1.toString('base64'));
    const codec = CodecConfigSchema.parse({
      currentKeyId: 'k2',
      keys: [
        { id: 'k1', file: 'k1.key' },
        { id: 'k2', env: 'CODEC_K2' },
      ],
    });
    const keys = loadKeys(codec, dir, { CODEC_K2: k2.toString('hex') });
    expect(keys.get('k1')!.equals(k1)).toBe(true);
    expect(keys.get('k2')!.equals(k2)).toBe(true);
    expect(() => loadKeys(codec, dir, {})).toThrow('codec.keys "k2": the environment variable CODEC_K2 is not set');
    expect(() => loadKeys(codec, os.tmpdir(), { CODEC_K2: k2.toString('hex') })).toThrow(
      /codec.keys "k1": cannot read the key file/,
    );
    expect(codecFor({ codec, file: path.join(dir, 'temporal.yaml') }, { CODEC_K2: k2.toString('hex') })).toBeInstanceOf(
      AesGcmCodec,
    );
    expect(codecFor({})).toBeNull();
  });

  it.each([
    [{ currentKeyId: 'k1', keys: [{ id: 'k1', value: 'c2VjcmV0' }] }, 'keys.0', 'Unrecognized key: "value"'],
    [
      { currentKeyId: 'k1', keys: [{ id: 'k1', file: 'a', env: 'B' }] },
      'keys.0',
      'give exactly one of "file" or "env"',
    ],
    [{ currentKeyId: 'k3', keys: [{ id: 'k1', env: 'A' }] }, 'currentKeyId', '"k3" is not one of the key ids (k1)'],
    [
      {
        currentKeyId: 'k1',
        keys: [
          { id: 'k1', env: 'A' },
          { id: 'k1', env: 'B' },
        ],
      },
      'keys.1.id',
      'duplicate key id "k1"',
    ],
    [
      { currentKeyId: 'k1', keys: [{ id: 'k1', env: 'A' }], server: { corsOrigins: ['http://localhost:8233'] } },
      'server',
      'never runs without a token',
    ],
  ])('refuses a codec config that would put a key in it or cannot work: %j', (codec, where, message) => {
    const parsed = ConfigSchema.safeParse({ codec });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find(
      (i) => i.path.join('.').startsWith(`codec.${where}`) || i.path.join('.') === `codec.${where}`,
    );
    expect(issue?.message ?? parsed.error!.message).toContain(message);
  });
});

describe('the codec keys and token are secrets the worker redacts', () => {
  it('lists each key as stored and as base64 and hex of its bytes, and the server token', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-codec-'));
    writeFileSync(path.join(dir, 'k1.key'), `${k1.toString('base64')}\n`);
    const codec = CodecConfigSchema.parse({
      currentKeyId: 'k1',
      keys: [
        { id: 'k1', file: 'k1.key' },
        { id: 'k2', env: 'CODEC_K2' },
        { id: 'gone', env: 'UNSET_VARIABLE' },
      ],
      server: { tokenEnv: 'CODEC_TOKEN' },
    });
    const secrets = codecSecrets(
      { codec, file: path.join(dir, 'temporal.yaml') },
      { CODEC_K2: k2.toString('hex'), CODEC_TOKEN: 'a-token-of-twenty-chars' },
    );
    expect(secrets).toEqual([
      { name: 'CODEC_KEY_k1', value: k1.toString('base64') },
      { name: 'CODEC_KEY_k1', value: k1.toString('base64') },
      { name: 'CODEC_KEY_k1', value: k1.toString('hex') },
      { name: 'CODEC_KEY_k2', value: k2.toString('hex') },
      { name: 'CODEC_KEY_k2', value: k2.toString('base64') },
      { name: 'CODEC_KEY_k2', value: k2.toString('hex') },
      { name: 'CODEC_SERVER_TOKEN', value: 'a-token-of-twenty-chars' },
    ]);
    expect(codecSecrets({})).toEqual([]);
  });
});
