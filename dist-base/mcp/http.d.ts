import { type Server } from 'node:http';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TeamrunError } from '../errors';
/** A plan may be up to Temporal's 2 MB payload limit; JSON-RPC framing and escaping add some. */
export declare const MAX_BODY_BYTES: number;
/** A shorter token is refused at start: it would be guessable. */
export declare const MIN_TOKEN_CHARS = 16;
export declare const TOKEN_ENV = "TEAMRUN_MCP_TOKEN";
export declare const MCP_PATH = "/mcp";
export declare class McpHttpConfigError extends TeamrunError {
    readonly code = "mcp_http_config";
}
export interface HttpOptions {
    host: string;
    port: number;
    /** From `httpToken`: the server never starts without one. */
    token: string;
    /** A fresh MCP server for each request. */
    serverFor: () => McpServer;
}
/** The token from the environment, refused when absent or short. */
export declare function httpToken(env: NodeJS.ProcessEnv): string;
/** Compares digests, so neither the length nor any prefix of the token shows in the time taken. */
export declare function bearerMatches(header: string | undefined, token: string): boolean;
export declare function serveHttp(options: HttpOptions): Promise<Server>;
