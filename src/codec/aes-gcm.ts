import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { CodecError } from './errors';

export const ENCODING = 'binary/encrypted';
export const METADATA_KEY_ID = 'encryption-key-id';
export const METADATA_CIPHER = 'encryption-cipher';
export const CIPHER = 'AES-256-GCM';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const utf8 = (s: string) => Buffer.from(s, 'utf8');
const text = (bytes: Uint8Array | null | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

/**
 * Temporal's PayloadCodec with AES-256-GCM: each payload (its metadata and data, as the
 * Payload protobuf) becomes one ciphertext `nonce | ciphertext | tag`, keyed by the current key;
 * the key id is the AAD, so a payload cannot be passed off under another key's id.
 * Payloads that are not encrypted pass through decode unchanged (runs started before the codec).
 */
export class AesGcmCodec implements PayloadCodec {
  constructor(
    private readonly keys: ReadonlyMap<string, Buffer>,
    private readonly currentKeyId: string,
  ) {
    if (!keys.has(currentKeyId))
      throw new CodecError('codec-unknown-key', `the current key "${currentKeyId}" is not among the loaded keys`);
  }

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.decrypt(payload));
  }

  private encrypt(payload: Payload): Payload {
    const keyId = this.currentKeyId;
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(keyId)!, nonce);
    cipher.setAAD(utf8(keyId));
    const data = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: { encoding: utf8(ENCODING), [METADATA_KEY_ID]: utf8(keyId), [METADATA_CIPHER]: utf8(CIPHER) },
      data,
    };
  }

  private decrypt(payload: Payload): Payload {
    if (text(payload.metadata?.encoding) !== ENCODING) return payload;
    const keyId = text(payload.metadata?.[METADATA_KEY_ID]) ?? '';
    const key = this.keys.get(keyId);
    if (!key) {
      throw new CodecError(
        'codec-unknown-key',
        `a payload is encrypted with key id "${keyId}", which this process does not ` +
          `have (it knows ${[...this.keys.keys()].join(', ')}); add that key to codec.keys`,
      );
    }
    const data = Buffer.from(payload.data ?? new Uint8Array());
    if (data.length < NONCE_BYTES + TAG_BYTES)
      throw new CodecError(
        'codec-decrypt-failed',
        `a payload under key "${keyId}" is too short to be AES-256-GCM ciphertext`,
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
      decipher.setAAD(utf8(keyId));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
      const decoded = temporal.api.common.v1.Payload.decode(plain);
      return { metadata: decoded.metadata, data: decoded.data };
    } catch {
      throw new CodecError(
        'codec-decrypt-failed',
        `a payload under key "${keyId}" does not decrypt: the key "${keyId}" ` +
          `is not the one it was encrypted with, or the payload was altered`,
      );
    }
  }
}
