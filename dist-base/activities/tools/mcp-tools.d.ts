import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from './types';
/** OpenAI's bound on a function's description. */
export declare const MAX_TOOL_DESCRIPTION_CHARS = 1024;
/** A tool's input schema, as JSON: past this it is left out (it would crowd every model request). */
export declare const MAX_TOOL_SCHEMA_BYTES: number;
/** One server's tools for one attempt: by the name the model uses, with the name the server knows. */
export interface ServerTools {
    tools: Map<string, {
        spec: ToolSpec;
        original: string;
    }>;
    /** Tools not offered, by the name they would have had, with the reason. */
    leftOut: Map<string, string>;
}
export declare function serverTools(server: string, listed: ReadonlyArray<Tool>): ServerTools;
/** `<server>__<tool>`, made to fit `^[A-Za-z0-9_-]{1,64}$` whatever the server named its tool. */
export declare function modelName(server: string, tool: string): string;
