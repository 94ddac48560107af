/**
 * The MCP server of `teamrun mcp`: the tools of CONTRACT.md ("Further additions") and one status
 * and one report resource per run. Tools are answered by this module, not by McpServer.registerTool:
 * the SDK refuses arguments that fail a schema with its own `-32602` text, where every refusal here
 * must start with the contract's code.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type McpContext } from './context';
import { type ToolSpec } from './tool';
export declare const TOOLS: ReadonlyArray<ToolSpec>;
/** A server for one connection (stdio) or one HTTP request; `version` is the package's. */
export declare function createMcpServer(ctx: McpContext, version: string): McpServer;
