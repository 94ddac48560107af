"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseKey = exports.loadKeys = exports.CodecError = exports.CodecConfigSchema = exports.METADATA_KEY_ID = exports.ENCODING = exports.AesGcmCodec = void 0;
exports.codecFor = codecFor;
exports.dataConverterFor = dataConverterFor;
exports.decodeHistory = decodeHistory;
exports.decodePayloads = decodePayloads;
exports.codecSecrets = codecSecrets;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const node_internals_1 = require("../sdk/node-internals");
const aes_gcm_1 = require("./aes-gcm");
const keys_1 = require("./keys");
var aes_gcm_2 = require("./aes-gcm");
Object.defineProperty(exports, "AesGcmCodec", { enumerable: true, get: function () { return aes_gcm_2.AesGcmCodec; } });
Object.defineProperty(exports, "ENCODING", { enumerable: true, get: function () { return aes_gcm_2.ENCODING; } });
Object.defineProperty(exports, "METADATA_KEY_ID", { enumerable: true, get: function () { return aes_gcm_2.METADATA_KEY_ID; } });
var config_1 = require("./config");
Object.defineProperty(exports, "CodecConfigSchema", { enumerable: true, get: function () { return config_1.CodecConfigSchema; } });
var errors_1 = require("./errors");
Object.defineProperty(exports, "CodecError", { enumerable: true, get: function () { return errors_1.CodecError; } });
var keys_2 = require("./keys");
Object.defineProperty(exports, "loadKeys", { enumerable: true, get: function () { return keys_2.loadKeys; } });
Object.defineProperty(exports, "parseKey", { enumerable: true, get: function () { return keys_2.parseKey; } });
/** The configured codec, or null when `codec:` is not set. */
function codecFor(config, env = process.env) {
    if (!config.codec)
        return null;
    const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
    return new aes_gcm_1.AesGcmCodec((0, keys_1.loadKeys)(config.codec, base, env), config.codec.currentKeyId);
}
/** The module exporting the failure converter, as source (run with tsx) or compiled. */
function failureConverterPath() {
    const entry = ['failure-converter.ts', 'failure-converter.js']
        .map((file) => node_path_1.default.join(__dirname, file))
        .find((file) => (0, node_fs_1.existsSync)(file));
    if (!entry)
        throw new Error(`no failure-converter module in ${__dirname}`);
    return entry;
}
/**
 * The DataConverter every teamrun client and worker of this config uses: the default one, or,
 * with `codec:` set, the AES-256-GCM codec plus a failure converter that moves failure messages
 * into (encrypted) payloads. Workflow code is unchanged: the codec runs in the worker and client.
 */
function dataConverterFor(config, env = process.env) {
    const codec = codecFor(config, env);
    return codec ? { payloadCodecs: [codec], failureConverterPath: failureConverterPath() } : {};
}
/**
 * Decodes every payload of a fetched history in place (`fetchHistory` returns them as stored),
 * search attributes excepted: Temporal keeps those plaintext so it can index them.
 */
async function decodeHistory(history, codecs) {
    if (codecs.length === 0)
        return history;
    await (0, node_internals_1.transformHistoryPayloads)(history, (payloads) => decodePayloads(codecs, payloads));
    return history;
}
/** Decodes payloads through each codec, the last one first: the reverse of the order they encode in. */
async function decodePayloads(codecs, payloads) {
    for (let i = codecs.length - 1; i >= 0; i--)
        payloads = await codecs[i].decode(payloads);
    return payloads;
}
/**
 * The codec's key material and server token as a worker should redact them from what tasks
 * report: the text as stored, and the key's bytes in base64 and hex. A task reading a key file
 * and printing it must not hand the key to everyone who can read history decoded.
 * Unreadable sources are skipped: the codec itself reports those.
 */
function codecSecrets(config, env = process.env) {
    if (!config.codec)
        return [];
    const base = config.file ? node_path_1.default.dirname(config.file) : process.cwd();
    const read = (source) => {
        try {
            if (source.file !== undefined)
                return (0, node_fs_1.readFileSync)(node_path_1.default.resolve(base, source.file), 'latin1');
            return source.env !== undefined && Object.hasOwn(env, source.env) ? env[source.env] : undefined;
        }
        catch {
            return undefined;
        }
    };
    const secrets = [];
    for (const key of config.codec.keys) {
        const stored = read(key);
        if (!stored)
            continue;
        const name = `CODEC_KEY_${key.id}`;
        secrets.push({ name, value: stored.trim() });
        try {
            const bytes = (0, keys_1.parseKey)(Buffer.from(stored, 'latin1'), name);
            secrets.push({ name, value: bytes.toString('base64') }, { name, value: bytes.toString('hex') });
        }
        catch {
            // Not a valid key: the codec refuses it on its own.
        }
    }
    const server = config.codec.server;
    const token = server && read({ file: server.tokenFile, env: server.tokenEnv })?.trim();
    if (token)
        secrets.push({ name: 'CODEC_SERVER_TOKEN', value: token });
    return secrets;
}
