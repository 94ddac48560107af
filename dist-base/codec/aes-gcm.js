"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AesGcmCodec = exports.CIPHER = exports.METADATA_CIPHER = exports.METADATA_KEY_ID = exports.ENCODING = void 0;
const node_crypto_1 = require("node:crypto");
const proto_1 = require("@temporalio/proto");
const errors_1 = require("./errors");
exports.ENCODING = 'binary/encrypted';
exports.METADATA_KEY_ID = 'encryption-key-id';
exports.METADATA_CIPHER = 'encryption-cipher';
exports.CIPHER = 'AES-256-GCM';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const utf8 = (s) => Buffer.from(s, 'utf8');
const text = (bytes) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);
/**
 * Temporal's PayloadCodec with AES-256-GCM: each payload (its metadata and data, as the
 * Payload protobuf) becomes one ciphertext `nonce | ciphertext | tag`, keyed by the current key;
 * the key id is the AAD, so a payload cannot be passed off under another key's id.
 * Payloads that are not encrypted pass through decode unchanged (runs started before the codec).
 */
class AesGcmCodec {
    keys;
    currentKeyId;
    constructor(keys, currentKeyId) {
        this.keys = keys;
        this.currentKeyId = currentKeyId;
        if (!keys.has(currentKeyId))
            throw new errors_1.CodecError('codec-unknown-key', `the current key "${currentKeyId}" is not among the loaded keys`);
    }
    async encode(payloads) {
        return payloads.map((payload) => this.encrypt(payload));
    }
    async decode(payloads) {
        return payloads.map((payload) => this.decrypt(payload));
    }
    encrypt(payload) {
        const keyId = this.currentKeyId;
        const plain = proto_1.temporal.api.common.v1.Payload.encode(payload).finish();
        const nonce = (0, node_crypto_1.randomBytes)(NONCE_BYTES);
        const cipher = (0, node_crypto_1.createCipheriv)('aes-256-gcm', this.keys.get(keyId), nonce);
        cipher.setAAD(utf8(keyId));
        const data = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
        return {
            metadata: { encoding: utf8(exports.ENCODING), [exports.METADATA_KEY_ID]: utf8(keyId), [exports.METADATA_CIPHER]: utf8(exports.CIPHER) },
            data,
        };
    }
    decrypt(payload) {
        if (text(payload.metadata?.encoding) !== exports.ENCODING)
            return payload;
        const keyId = text(payload.metadata?.[exports.METADATA_KEY_ID]) ?? '';
        const key = this.keys.get(keyId);
        if (!key) {
            throw new errors_1.CodecError('codec-unknown-key', `a payload is encrypted with key id "${keyId}", which this process does not ` +
                `have (it knows ${[...this.keys.keys()].join(', ')}); add that key to codec.keys`);
        }
        const data = Buffer.from(payload.data ?? new Uint8Array());
        if (data.length < NONCE_BYTES + TAG_BYTES)
            throw new errors_1.CodecError('codec-decrypt-failed', `a payload under key "${keyId}" is too short to be AES-256-GCM ciphertext`);
        try {
            const decipher = (0, node_crypto_1.createDecipheriv)('aes-256-gcm', key, data.subarray(0, NONCE_BYTES));
            decipher.setAAD(utf8(keyId));
            decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
            const plain = Buffer.concat([
                decipher.update(data.subarray(NONCE_BYTES, data.length - TAG_BYTES)),
                decipher.final(),
            ]);
            const decoded = proto_1.temporal.api.common.v1.Payload.decode(plain);
            return { metadata: decoded.metadata, data: decoded.data };
        }
        catch {
            throw new errors_1.CodecError('codec-decrypt-failed', `a payload under key "${keyId}" does not decrypt: the key "${keyId}" ` +
                `is not the one it was encrypted with, or the payload was altered`);
        }
    }
}
exports.AesGcmCodec = AesGcmCodec;
