import type { DataConverter, Payload, PayloadCodec } from '@temporalio/common';
import type { History } from '../sdk/proto';
import type { CodecConfig } from './config';
import { AesGcmCodec } from './aes-gcm';
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
export declare function codecFor(config: CodecSettings, env?: NodeJS.ProcessEnv): AesGcmCodec | null;
/**
 * The DataConverter every teamrun client and worker of this config uses: the default one, or,
 * with `codec:` set, the AES-256-GCM codec plus a failure converter that moves failure messages
 * into (encrypted) payloads. Workflow code is unchanged: the codec runs in the worker and client.
 */
export declare function dataConverterFor(config: CodecSettings, env?: NodeJS.ProcessEnv): DataConverter;
/**
 * Decodes every payload of a fetched history in place (`fetchHistory` returns them as stored),
 * search attributes excepted: Temporal keeps those plaintext so it can index them.
 */
export declare function decodeHistory(history: History, codecs: PayloadCodec[]): Promise<History>;
/** Decodes payloads through each codec, the last one first: the reverse of the order they encode in. */
export declare function decodePayloads(codecs: PayloadCodec[], payloads: Payload[]): Promise<Payload[]>;
/**
 * The codec's key material and server token as a worker should redact them from what tasks
 * report: the text as stored, and the key's bytes in base64 and hex. A task reading a key file
 * and printing it must not hand the key to everyone who can read history decoded.
 * Unreadable sources are skipped: the codec itself reports those.
 */
export declare function codecSecrets(config: CodecSettings, env?: NodeJS.ProcessEnv): {
    name: string;
    value: string;
}[];
