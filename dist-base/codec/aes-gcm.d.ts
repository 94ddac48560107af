import type { Payload, PayloadCodec } from '@temporalio/common';
export declare const ENCODING = "binary/encrypted";
export declare const METADATA_KEY_ID = "encryption-key-id";
export declare const METADATA_CIPHER = "encryption-cipher";
export declare const CIPHER = "AES-256-GCM";
/**
 * Temporal's PayloadCodec with AES-256-GCM: each payload (its metadata and data, as the
 * Payload protobuf) becomes one ciphertext `nonce | ciphertext | tag`, keyed by the current key;
 * the key id is the AAD, so a payload cannot be passed off under another key's id.
 * Payloads that are not encrypted pass through decode unchanged (runs started before the codec).
 */
export declare class AesGcmCodec implements PayloadCodec {
    private readonly keys;
    private readonly currentKeyId;
    constructor(keys: ReadonlyMap<string, Buffer>, currentKeyId: string);
    encode(payloads: Payload[]): Promise<Payload[]>;
    decode(payloads: Payload[]): Promise<Payload[]>;
    private encrypt;
    private decrypt;
}
