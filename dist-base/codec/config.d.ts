import { z } from 'zod';
declare const CodecServerSchema: z.ZodObject<{
    host: z.ZodDefault<z.ZodString>;
    port: z.ZodDefault<z.ZodNumber>;
    corsOrigins: z.ZodDefault<z.ZodArray<z.ZodString>>;
    tokenEnv: z.ZodOptional<z.ZodString>;
    tokenFile: z.ZodOptional<z.ZodString>;
    namespaces: z.ZodOptional<z.ZodArray<z.ZodString>>;
}, z.core.$strict>;
/**
 * `codec:` in teamrun.yaml: payload encryption (AES-256-GCM). Payloads are encrypted with
 * `currentKeyId` and decrypted with whichever listed key their metadata names, so a key is
 * rotated by adding a new one, making it current, and keeping the old one while runs need it.
 */
export declare const CodecConfigSchema: z.ZodObject<{
    currentKeyId: z.ZodString;
    keys: z.ZodArray<z.ZodObject<{
        id: z.ZodString;
        file: z.ZodOptional<z.ZodString>;
        env: z.ZodOptional<z.ZodString>;
    }, z.core.$strict>>;
    server: z.ZodOptional<z.ZodObject<{
        host: z.ZodDefault<z.ZodString>;
        port: z.ZodDefault<z.ZodNumber>;
        corsOrigins: z.ZodDefault<z.ZodArray<z.ZodString>>;
        tokenEnv: z.ZodOptional<z.ZodString>;
        tokenFile: z.ZodOptional<z.ZodString>;
        namespaces: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type CodecConfig = z.infer<typeof CodecConfigSchema>;
export type CodecServerConfig = z.infer<typeof CodecServerSchema>;
export {};
