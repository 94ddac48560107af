"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CodecConfigSchema = void 0;
const zod_1 = require("zod");
/** A key id travels in every payload's metadata (`encryption-key-id`): short and printable. */
const KeyIdSchema = zod_1.z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a key id is 1-64 letters, digits, ".", "_" or "-"');
/** Where one key's material is read from: a file or an environment variable, never the config itself. */
const KeySourceSchema = zod_1.z
    .object({
    id: KeyIdSchema,
    /** A file holding the 32-byte key: raw, base64 or hex text; relative to the config file. */
    file: zod_1.z.string().min(1).optional(),
    /** An environment variable holding the key as base64 or hex text. */
    env: zod_1.z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name')
        .optional(),
})
    .strict()
    .refine((k) => (k.file === undefined) !== (k.env === undefined), { message: 'give exactly one of "file" or "env"' });
const CodecServerSchema = zod_1.z
    .object({
    host: zod_1.z.string().min(1).default('127.0.0.1'),
    port: zod_1.z.number().int().min(0).max(65535).default(8089),
    /** Origins (scheme://host:port) of the Web UIs allowed to call it from a browser. */
    corsOrigins: zod_1.z
        .array(zod_1.z.string().regex(/^https?:\/\/[^/\s]+$/, 'an origin is scheme://host[:port], no path'))
        .default([]),
    /** Where the token callers must present is read from (exactly one). */
    tokenEnv: zod_1.z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name')
        .optional(),
    tokenFile: zod_1.z.string().min(1).optional(),
    /** Namespaces it decodes for (the X-Namespace header); default: connection.namespace. */
    namespaces: zod_1.z.array(zod_1.z.string().min(1)).optional(),
})
    .strict()
    .refine((s) => (s.tokenEnv === undefined) !== (s.tokenFile === undefined), {
    message: 'give exactly one of "tokenEnv" or "tokenFile": the codec server never runs without a token',
});
/**
 * `codec:` in teamrun.yaml: payload encryption (AES-256-GCM). Payloads are encrypted with
 * `currentKeyId` and decrypted with whichever listed key their metadata names, so a key is
 * rotated by adding a new one, making it current, and keeping the old one while runs need it.
 */
exports.CodecConfigSchema = zod_1.z
    .object({
    currentKeyId: KeyIdSchema,
    keys: zod_1.z.array(KeySourceSchema).min(1).max(32),
    server: CodecServerSchema.optional(),
})
    .strict()
    .superRefine((codec, ctx) => {
    const seen = new Set();
    codec.keys.forEach((key, i) => {
        if (seen.has(key.id))
            ctx.addIssue({ code: 'custom', path: ['keys', i, 'id'], message: `duplicate key id "${key.id}"` });
        seen.add(key.id);
    });
    if (!seen.has(codec.currentKeyId)) {
        ctx.addIssue({
            code: 'custom',
            path: ['currentKeyId'],
            message: `"${codec.currentKeyId}" is not one of the key ids (${[...seen].join(', ')})`,
        });
    }
});
