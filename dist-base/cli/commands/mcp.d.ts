import { type Command } from 'commander';
import type { TeamrunConfig } from '../../config/config';
interface McpOptions {
    http?: boolean;
    port: number;
    host: string;
    actor?: string;
}
export declare const DEFAULT_MCP_PORT = 8765;
/**
 * Who the server acts as: `--actor`, else $TEAMRUN_ACTOR, else `mcp.actor` of teamrun.yaml, else
 * the login name. Fixed for the server's life; no tool takes an actor.
 */
export declare function mcpActor(options: McpOptions, config: TeamrunConfig, env: NodeJS.ProcessEnv): string;
export declare function registerMcp(program: Command): void;
export {};
