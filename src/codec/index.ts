import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import { transformHistoryPayloads } from '../sdk/node-internals';
import type { History } from '../sdk/proto';
import type { CodecConfig } from './config';
import { AesGcmCodec } from './aes-gcm';
import { loadKeys, parseKey } from './keys';

export { AesGcmCodec, ENCODING, METADATA_KEY_ID } from './aes-gcm';
export { CodecConfigSchema, type CodecConfig, type CodecServerConfig } from './config';
export { CodecError } from './errors';
export { loadKeys, parseKey } from './keys';

/** What the codec needs of teamrun's config (the whole config satisfies it). */
export interface CodecSettings {
  codec?: CodecConfig;
  /** The config file, whose directory relative key files are found in. */
  file?: string | null;
}

/** The configured codec, or null when `codec:` is not set. */
export function codecFor(config: CodecSettings, env: NodeJS.ProcessEnv = process.env): AesGcmCodec | null {
  if (!config.codec) return null;
  const base = config.file ? path.dirname(config.file) : process.cwd();
  return new AesGcmCodec(loadKeys(config.codec, base, env), config.codec.currentKeyId);
}

/** The module exporting the failure converter, as source (run with tsx) or compiled. */
function failureConverterPath(): string {
  const entry = ['failure-converter.ts', 'failure-converter.js']
    .map((file) => path.join(__dirname, file))
    .find((file) => existsSync(file));
  if (!entry) throw new Error(`no failure-converter module in ${__dirname}`);
  return entry;
}

/**
 * The DataConverter every teamrun client and worker of this config uses: the default one, or,
 * with `codec:` set, the AES-256-GCM codec plus a failure converter that moves failure messages
 * into (encrypted) payloads. Workflow code is unchanged: the codec runs in the worker and client.
 */
export function dataConverterFor(config: CodecSettings, env: NodeJS.ProcessEnv = process.env): DataConverter {
  const codec = codecFor(config, env);
  return codec ? { payloadCodecs: [codec], failureConverterPath: failureConverterPath() } : {};
}

/**
 * Decodes every payload of a fetched history in place (`fetchHistory` returns them as stored),
 * search attributes excepted: Temporal keeps those plaintext so it can index them.
 */
export async function decodeHistory(history: History, codecs: PayloadCodec[]): Promise<History> {
  if (codecs.length === 0) return history;
  await transformHistoryPayloads(history, (payloads) => decodePayloads(codecs, payloads));
  return history;
}

/** Decodes payloads through each codec, the last one first: the reverse of the order they encode in. */
export async function decodePayloads(codecs: PayloadCodec[], payloads: Payload[]): Promise<Payload[]> {
  for (let i = codecs.length - 1; i >= 0; i--) payloads = await codecs[i].decode(payloads);
  return payloads;
}

/**
 * The codec's key material and server token as a worker should redact them from what tasks
 * report: the text as stored, and the key's bytes in base64 and hex. A task reading a key file
 * and printing it must not hand the key to everyone who can read history decoded.
 * Unreadable sources are skipped: the codec itself reports those.
 */
export function codecSecrets(
  config: CodecSettings,
  env: NodeJS.ProcessEnv = process.env,
): { name: string; value: string }[] {
  if (!config.codec) return [];
  const base = config.file ? path.dirname(config.file) : process.cwd();
  const read = (source: { file?: string; env?: string }): string | undefined => {
    try {
      if (source.file !== undefined) return readFileSync(path.resolve(base, source.file), 'latin1');
      return source.env !== undefined && Object.hasOwn(env, source.env) ? env[source.env] : undefined;
    } catch {
      return undefined;
    }
  };
  const secrets: { name: string; value: string }[] = [];
  for (const key of config.codec.keys) {
    const stored = read(key);
    if (!stored) continue;
    const name = `CODEC_KEY_${key.id}`;
    secrets.push({ name, value: stored.trim() });
    try {
      const bytes = parseKey(Buffer.from(stored, 'latin1'), name);
      secrets.push({ name, value: bytes.toString('base64') }, { name, value: bytes.toString('hex') });
    } catch {
      // Not a valid key: the codec refuses it on its own.
    }
  }
  const server = config.codec.server;
  const token = server && read({ file: server.tokenFile, env: server.tokenEnv })?.trim();
  if (token) secrets.push({ name: 'CODEC_SERVER_TOKEN', value: token });
  return secrets;
}
