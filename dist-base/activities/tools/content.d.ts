/**
 * A tool's result as the text a model reads: MCP content blocks flattened, anything else as JSON,
 * cut to a bound (with a note saying how much was cut) so one result never floods a transcript.
 */
/** The most a tool result (or error) may take, in UTF-8 bytes, before it is cut. */
export declare const MAX_TOOL_RESULT_BYTES: number;
/** The text of an MCP `tools/call` result: its content blocks, or its structured content when it has none. */
export declare function mcpResultText(result: Record<string, unknown>): string;
/** A custom tool's answer as text: a string as is, anything else as JSON; bounded. */
export declare function toolText(value: unknown): string;
/** `text` within MAX_TOOL_RESULT_BYTES, cut on a character boundary, with a note of what was cut. */
export declare function boundedText(text: string, maxBytes?: number): string;
