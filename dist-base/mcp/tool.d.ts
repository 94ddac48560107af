import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type McpContext } from './context';
/** What a tool may do beside answering: report progress (when the client asked for it) and see a cancelled call. */
export interface ToolCall {
    progress(progress: number, message: string): Promise<void>;
    signal: AbortSignal;
}
export interface ToolSpec<S extends z.ZodType = z.ZodType> {
    name: string;
    title: string;
    description: string;
    /** Parses the arguments, bounds included; a problem is refused `invalid_request` (or `value_too_large`). */
    input: S;
    /** What tools/list shows when it says more than `input` parses (a plan's full schema, which the run checks). */
    listed?: z.ZodType;
    annotations: ToolAnnotations;
    run(args: z.output<S>, ctx: McpContext, call: ToolCall): Promise<object>;
}
/** Keeps each tool's arguments typed by its own schema while the server holds them all in one list. */
export declare function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolSpec;
/** Every tool names its run the same way: a Temporal workflow id. */
export declare const runId: z.ZodString;
/** The JSON Schema tools/list gives for a tool: its input as a caller writes it (defaults optional). */
export declare function inputJsonSchema(tool: ToolSpec): {
    type: 'object';
    [key: string]: unknown;
};
/** As the run parses a control request: `adjudicate`'s fields keep their own codes (`invalid_decision`, ...). */
export declare function parseArguments(tool: ToolSpec, args: unknown): unknown;
export declare function answer(ctx: McpContext, value: object): CallToolResult;
export declare function refusal(ctx: McpContext, err: unknown): CallToolResult;
/** Paging: an opaque cursor a list answer gives as `nextCursor`, holding where the next page starts. */
export declare const cursor: z.ZodString;
export declare function encodeCursor(offset: number): string;
export declare function decodeCursor(value: string | undefined): number;
