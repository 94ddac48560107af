"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ToolListSchema = exports.ToolPatternSchema = exports.MAX_TOOL_PATTERNS = exports.RESERVED_TOOL_SERVER = exports.SERVER_NAME_PATTERN = exports.TOOL_SEPARATOR = exports.TOOL_NAME_PATTERN = void 0;
exports.wildcardServer = wildcardServer;
exports.serverOf = serverOf;
/**
 * How an agent's tools are named (CONTRACT "Further additions"): `<server>__<tool>`, in the
 * characters OpenAI allows a function name, and how a task lists the ones it may use: by name, or
 * `<server>__*` for all of one server's. The plan checks only the shape; which names exist is the
 * worker's to say when an attempt starts (its MCP servers and custom tools).
 */
const zod_1 = require("zod");
/** An OpenAI function name: what every tool name a model sees must be. */
exports.TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Between a server's name and its tool's. */
exports.TOOL_SEPARATOR = '__';
/** A server name: no `__` in it (the first `__` of a tool name ends the server's), at most 32 characters. */
exports.SERVER_NAME_PATTERN = /^(?=.{1,32}$)[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
/** teamrun's own tools (`teamrun__send_message`, ...): no MCP server or custom tool may take the name. */
exports.RESERVED_TOOL_SERVER = 'teamrun';
/** At most this many entries in a task's `tools`. */
exports.MAX_TOOL_PATTERNS = 128;
/** `<server>__*`: every tool of that server. */
const SERVER_WILDCARD = /^(.+)__\*$/;
/** The server a wildcard names (`fs__*` -> `fs`), or undefined for a plain tool name. */
function wildcardServer(pattern) {
    const server = SERVER_WILDCARD.exec(pattern)?.[1];
    return server !== undefined && exports.SERVER_NAME_PATTERN.test(server) ? server : undefined;
}
/** The server part of a tool name (before its first `__`), or undefined when it has none. */
function serverOf(name) {
    const at = name.indexOf(exports.TOOL_SEPARATOR);
    return at > 0 ? name.slice(0, at) : undefined;
}
exports.ToolPatternSchema = zod_1.z
    .string()
    .refine((p) => exports.TOOL_NAME_PATTERN.test(p) || wildcardServer(p) !== undefined, {
    message: 'a tool is named `<server>__<tool>` (letters, digits, "_" and "-", at most 64 characters) ' +
        'or `<server>__*` for all of one server',
});
/** A task's `tools`: which of its worker's tools an agent may call. */
exports.ToolListSchema = zod_1.z
    .array(exports.ToolPatternSchema)
    .max(exports.MAX_TOOL_PATTERNS)
    .refine((list) => new Set(list).size === list.length, { message: 'a tool is listed twice' });
