import type { CodecConfig } from './config';
export declare const KEY_BYTES = 32;
/**
 * The 32 bytes of an AES-256 key from what a file or variable holds: hex (64 characters),
 * base64 (`openssl rand -base64 32`), or, for a file, the raw bytes.
 */
export declare function parseKey(material: Buffer, where: string): Buffer;
/** Reads every configured key, by id. `baseDir` is where relative key files are found (the config file's directory). */
export declare function loadKeys(codec: CodecConfig, baseDir: string, env?: NodeJS.ProcessEnv): Map<string, Buffer>;
