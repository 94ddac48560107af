/**
 * How an agent's tools are named (CONTRACT "Further additions"): `<server>__<tool>`, in the
 * characters OpenAI allows a function name, and how a task lists the ones it may use: by name, or
 * `<server>__*` for all of one server's. The plan checks only the shape; which names exist is the
 * worker's to say when an attempt starts (its MCP servers and custom tools).
 */
import { z } from 'zod';
/** An OpenAI function name: what every tool name a model sees must be. */
export declare const TOOL_NAME_PATTERN: RegExp;
/** Between a server's name and its tool's. */
export declare const TOOL_SEPARATOR = "__";
/** A server name: no `__` in it (the first `__` of a tool name ends the server's), at most 32 characters. */
export declare const SERVER_NAME_PATTERN: RegExp;
/** teamrun's own tools (`teamrun__send_message`, ...): no MCP server or custom tool may take the name. */
export declare const RESERVED_TOOL_SERVER = "teamrun";
/** At most this many entries in a task's `tools`. */
export declare const MAX_TOOL_PATTERNS = 128;
/** The server a wildcard names (`fs__*` -> `fs`), or undefined for a plain tool name. */
export declare function wildcardServer(pattern: string): string | undefined;
/** The server part of a tool name (before its first `__`), or undefined when it has none. */
export declare function serverOf(name: string): string | undefined;
export declare const ToolPatternSchema: z.ZodString;
/** A task's `tools`: which of its worker's tools an agent may call. */
export declare const ToolListSchema: z.ZodArray<z.ZodString>;
