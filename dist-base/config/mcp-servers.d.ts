/**
 * `worker.mcpServers`: the MCP servers whose tools this worker's agents may call, in the shape MCP
 * clients already use. A stdio server is a command the worker starts for each attempt; a Streamable
 * HTTP server is a URL the worker's attempts share, its header values read from the worker's
 * environment by name (never written in the config, so never in a run's history).
 */
import { z } from 'zod';
export declare const MCP_CONFIG_LIMITS: {
    readonly servers: 32;
    readonly args: 256;
    readonly argBytes: 4096;
    readonly envVars: 128;
    readonly envValueBytes: number;
    readonly headers: 32;
};
declare const McpStdioServerSchema: z.ZodObject<{
    command: z.ZodString;
    args: z.ZodOptional<z.ZodArray<z.ZodString>>;
    env: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
    cwd: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
declare const McpHttpServerSchema: z.ZodObject<{
    url: z.ZodURL;
    headersEnv: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
}, z.core.$strict>;
export type McpStdioServer = z.infer<typeof McpStdioServerSchema>;
export type McpHttpServer = z.infer<typeof McpHttpServerSchema>;
export type McpServerConfig = McpStdioServer | McpHttpServer;
export declare const McpServersSchema: z.ZodRecord<z.ZodString, z.ZodPipe<z.ZodRecord<z.ZodString, z.ZodUnknown>, z.ZodTransform<{
    command: string;
    args?: string[] | undefined;
    env?: Record<string, string> | undefined;
    cwd?: string | undefined;
} | {
    url: string;
    headersEnv?: Record<string, string> | undefined;
}, Record<string, unknown>>>>;
export declare function isHttpServer(server: McpServerConfig): server is McpHttpServer;
export {};
