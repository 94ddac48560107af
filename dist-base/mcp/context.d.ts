/**
 * What every tool of `teamrun mcp` works with: one Temporal client for the server's life, the
 * config it was started with, the identity it acts as, and the redactor its answers pass through.
 */
import { type Client } from '@temporalio/client';
import type { Redactor } from '../activities/redact';
import { type TeamRunHandle } from '../client/handle';
import type { TeamrunConfig } from '../config/config';
import { TeamrunError } from '../errors';
export interface McpContext {
    client: Client;
    config: TeamrunConfig;
    /**
     * Who this server speaks as in every control message (`--actor`, $TEAMRUN_ACTOR, `mcp.actor`):
     * fixed when it starts, never taken from a tool's arguments, so a model cannot claim to be an operator.
     */
    actor: string;
    redactor: Redactor;
}
/**
 * A tool call that cannot be done; `code` is the contract's (or the door's own, docs/mcp.md) and
 * the text an agent sees starts with it.
 */
export declare class McpRefusal extends TeamrunError {
    readonly code: string;
    constructor(code: string, message: string);
}
/** A run's handle, once Temporal knows the id: an unknown one is refused `not_found` before anything is sent. */
export declare function runHandle(ctx: McpContext, runId: string): Promise<TeamRunHandle>;
export declare function notFound(ctx: McpContext, runId: string): McpRefusal;
