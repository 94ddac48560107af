"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.KEY_BYTES = void 0;
exports.parseKey = parseKey;
exports.loadKeys = loadKeys;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const errors_1 = require("./errors");
exports.KEY_BYTES = 32;
/**
 * The 32 bytes of an AES-256 key from what a file or variable holds: hex (64 characters),
 * base64 (`openssl rand -base64 32`), or, for a file, the raw bytes.
 */
function parseKey(material, where) {
    if (material.length === exports.KEY_BYTES && !/^[A-Za-z0-9+/=\s]+$/.test(material.toString('latin1')))
        return Buffer.from(material);
    const text = material.toString('utf8').trim();
    const bytes = /^[0-9a-fA-F]{64}$/.test(text)
        ? Buffer.from(text, 'hex')
        : /^[A-Za-z0-9+/]+={0,2}$/.test(text)
            ? Buffer.from(text, 'base64')
            : Buffer.alloc(0);
    if (bytes.length !== exports.KEY_BYTES) {
        throw new errors_1.CodecError('codec-key-invalid', `${where}: not a ${exports.KEY_BYTES}-byte key (give 64 hex characters, base64 of ${exports.KEY_BYTES} ` +
            `bytes as \`openssl rand -base64 32\` prints, or ${exports.KEY_BYTES} raw bytes in a file)`);
    }
    return bytes;
}
/** Reads every configured key, by id. `baseDir` is where relative key files are found (the config file's directory). */
function loadKeys(codec, baseDir, env = process.env) {
    const keys = new Map();
    for (const source of codec.keys) {
        if (source.file !== undefined) {
            const file = node_path_1.default.resolve(baseDir, source.file);
            let material;
            try {
                material = (0, node_fs_1.readFileSync)(file);
            }
            catch (err) {
                throw new errors_1.CodecError('codec-key-unreadable', `codec.keys "${source.id}": cannot read the key file ${file}: ${err.message}`);
            }
            keys.set(source.id, parseKey(material, `codec.keys "${source.id}" (file ${file})`));
        }
        else {
            const value = Object.hasOwn(env, source.env) ? env[source.env] : undefined;
            if (!value)
                throw new errors_1.CodecError('codec-key-unreadable', `codec.keys "${source.id}": the environment variable ${source.env} is not set`);
            keys.set(source.id, parseKey(Buffer.from(value, 'utf8'), `codec.keys "${source.id}" ($${source.env})`));
        }
    }
    return keys;
}
