import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CodecConfig } from './config';
import { CodecError } from './errors';

export const KEY_BYTES = 32;

/**
 * The 32 bytes of an AES-256 key from what a file or variable holds: hex (64 characters),
 * base64 (`openssl rand -base64 32`), or, for a file, the raw bytes.
 */
export function parseKey(material: Buffer, where: string): Buffer {
  if (material.length === KEY_BYTES && !/^[A-Za-z0-9+/=\s]+$/.test(material.toString('latin1')))
    return Buffer.from(material);
  const text = material.toString('utf8').trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]+={0,2}$/.test(text)
      ? Buffer.from(text, 'base64')
      : Buffer.alloc(0);
  if (bytes.length !== KEY_BYTES) {
    throw new CodecError(
      'codec-key-invalid',
      `${where}: not a ${KEY_BYTES}-byte key (give 64 hex characters, base64 of ${KEY_BYTES} ` +
        `bytes as \`openssl rand -base64 32\` prints, or ${KEY_BYTES} raw bytes in a file)`,
    );
  }
  return bytes;
}

/** Reads every configured key, by id. `baseDir` is where relative key files are found (the config file's directory). */
export function loadKeys(
  codec: CodecConfig,
  baseDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const source of codec.keys) {
    if (source.file !== undefined) {
      const file = path.resolve(baseDir, source.file);
      let material: Buffer;
      try {
        material = readFileSync(file);
      } catch (err) {
        throw new CodecError(
          'codec-key-unreadable',
          `codec.keys "${source.id}": cannot read the key file ${file}: ${(err as Error).message}`,
        );
      }
      keys.set(source.id, parseKey(material, `codec.keys "${source.id}" (file ${file})`));
    } else {
      const value = Object.hasOwn(env, source.env!) ? env[source.env!] : undefined;
      if (!value)
        throw new CodecError(
          'codec-key-unreadable',
          `codec.keys "${source.id}": the environment variable ${source.env} is not set`,
        );
      keys.set(source.id, parseKey(Buffer.from(value, 'utf8'), `codec.keys "${source.id}" ($${source.env})`));
    }
  }
  return keys;
}
