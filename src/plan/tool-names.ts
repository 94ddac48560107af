/**
 * How an agent's tools are named (CONTRACT "Further additions"): `<server>__<tool>`, in the
 * characters OpenAI allows a function name, and how a task lists the ones it may use: by name, or
 * `<server>__*` for all of one server's. The plan checks only the shape; which names exist is the
 * worker's to say when an attempt starts (its MCP servers and custom tools).
 */
import { z } from 'zod';

/** An OpenAI function name: what every tool name a model sees must be. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Between a server's name and its tool's. */
export const TOOL_SEPARATOR = '__';
/** A server name: no `__` in it (the first `__` of a tool name ends the server's), at most 32 characters. */
export const SERVER_NAME_PATTERN = /^(?=.{1,32}$)[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
/** teamrun's own tools (`teamrun__send_message`, ...): no MCP server or custom tool may take the name. */
export const RESERVED_TOOL_SERVER = 'teamrun';
/** At most this many entries in a task's `tools`. */
export const MAX_TOOL_PATTERNS = 128;

/** `<server>__*`: every tool of that server. */
const SERVER_WILDCARD = /^(.+)__\*$/;

/** The server a wildcard names (`fs__*` -> `fs`), or undefined for a plain tool name. */
export function wildcardServer(pattern: string): string | undefined {
  const server = SERVER_WILDCARD.exec(pattern)?.[1];
  return server !== undefined && SERVER_NAME_PATTERN.test(server) ? server : undefined;
}

/** The server part of a tool name (before its first `__`), or undefined when it has none. */
export function serverOf(name: string): string | undefined {
  const at = name.indexOf(TOOL_SEPARATOR);
  return at > 0 ? name.slice(0, at) : undefined;
}

export const ToolPatternSchema = z
  .string()
  .refine((p) => TOOL_NAME_PATTERN.test(p) || wildcardServer(p) !== undefined, {
    message:
      'a tool is named `<server>__<tool>` (letters, digits, "_" and "-", at most 64 characters) ' +
      'or `<server>__*` for all of one server',
  });

/** A task's `tools`: which of its worker's tools an agent may call. */
export const ToolListSchema = z
  .array(ToolPatternSchema)
  .max(MAX_TOOL_PATTERNS)
  .refine((list) => new Set(list).size === list.length, { message: 'a tool is listed twice' });
