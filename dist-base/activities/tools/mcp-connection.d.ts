import { type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpHttpServer, McpStdioServer } from '../../config/mcp-servers';
import type { ToolCallResult } from './types';
export declare const MCP_LIMITS: {
    /** Starting (or reaching) a server and its `initialize` handshake. */
    readonly connectTimeoutMs: 30000;
    /** Opens of one connection: the first and the restarts after it broke. */
    readonly opens: 6;
    readonly toolsPerServer: 256;
    readonly listPages: 16;
    /** One JSON-RPC message from a stdio server; one HTTP response body. */
    readonly messageBytes: number;
    /** The end of a stdio server's stderr kept to explain why it died. */
    readonly stderrTailBytes: 2048;
};
/** The `_meta` key every `tools/call` carries the attempt's fencing token in (CONTRACT). */
export declare const FENCING_TOKEN_META = "teamrun/fencingToken";
export declare class McpConnection {
    readonly server: string;
    private readonly transport;
    private client;
    private opening;
    private opens;
    private stderrTail;
    private closed;
    private constructor();
    /** A stdio server, started on first use with exactly `env` (the caller's allowlist). */
    static stdio(server: string, spec: McpStdioServer, env: Record<string, string>): McpConnection;
    /** A Streamable HTTP server, with `headers` (values from the worker's environment) on every request. */
    static http(server: string, spec: McpHttpServer, headers: Record<string, string>): McpConnection;
    /** The server's tools, at most MCP_LIMITS.toolsPerServer of them. */
    listTools(signal: AbortSignal): Promise<Tool[]>;
    /** Calls `tool` with the attempt's fencing token in `_meta`; every failure is `{ ok: false }`. */
    call(tool: string, args: Record<string, unknown>, fencingToken: number, options: {
        signal: AbortSignal;
        timeoutMs: number;
    }): Promise<ToolCallResult>;
    close(): Promise<void>;
    private connect;
    private open;
    /**
     * A request failed. An error the server answered with leaves the connection as it is; anything
     * else (the process gone, the connection lost) drops it, so the next call opens it again.
     */
    private broken;
    private describe;
    private lastWords;
}
