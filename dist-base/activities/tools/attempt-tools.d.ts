import type { AttemptIdentity } from '../interface';
import type { TeamrunConfig } from '../../config/config';
import type { Redactor } from '../redact';
import type { CustomTool } from './define-tool';
import type { McpConnection } from './mcp-connection';
import type { ToolCallResult, ToolSpec, Toolbox } from './types';
/** A tool call's time when the task sets no `toolTimeoutMs`. */
export declare const DEFAULT_TOOL_TIMEOUT_MS = 60000;
/** What an attempt's toolbox is made from: the worker's part, shared by its attempts. */
export interface WorkerToolSources {
    config: TeamrunConfig;
    custom: ReadonlyMap<string, CustomTool>;
    /** HTTP servers, one connection each for the whole worker. */
    shared: ReadonlyMap<string, McpConnection>;
    /** A stdio server's connection for one attempt. */
    stdio(server: string, attempt: AttemptIdentity): McpConnection | undefined;
    redactor: Redactor;
}
export declare const TOOL_FAILURE_TYPES: {
    /** `resolve` met a name the worker does not have: the plan is wrong, retrying will not help (non-retryable). */
    readonly unknownTool: 'TeamUnknownTool';
    /** A server the task names could not list its tools: perhaps it will for the next attempt (retryable). */
    readonly serverFailed: 'TeamToolServerFailed';
};
/** One attempt's toolbox: the calls it may make are the names `resolve` gave it. */
export declare class AttemptTools implements Toolbox {
    private readonly sources;
    private readonly attempt;
    private readonly started;
    private readonly listings;
    private readonly targets;
    private closed;
    constructor(sources: WorkerToolSources, attempt: AttemptIdentity & {
        signal: AbortSignal;
    });
    resolve(patterns: readonly string[]): Promise<ToolSpec[]>;
    call(name: string, args: unknown, options: {
        signal: AbortSignal;
        timeoutMs?: number;
    }): Promise<ToolCallResult>;
    close(): Promise<void>;
    private callMcp;
    private callCustom;
    private isServer;
    /** The server's connection: the worker's for an HTTP server, this attempt's own for a stdio one. */
    private connection;
    private listing;
    private custom;
    private customNames;
    private unknownServer;
    private unknownName;
}
