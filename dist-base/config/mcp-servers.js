"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.McpServersSchema = exports.MCP_CONFIG_LIMITS = void 0;
exports.isHttpServer = isHttpServer;
/**
 * `worker.mcpServers`: the MCP servers whose tools this worker's agents may call, in the shape MCP
 * clients already use. A stdio server is a command the worker starts for each attempt; a Streamable
 * HTTP server is a URL the worker's attempts share, its header values read from the worker's
 * environment by name (never written in the config, so never in a run's history).
 */
const zod_1 = require("zod");
const tool_names_1 = require("../plan/tool-names");
exports.MCP_CONFIG_LIMITS = {
    servers: 32,
    args: 256,
    argBytes: 4096,
    envVars: 128,
    envValueBytes: 32 * 1024,
    headers: 32,
};
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// RFC 9110 token characters: anything else would be refused by fetch, later and less clearly.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** A record of at most `max` entries whose keys match `key`; a bad key is named in the error's path. */
function boundedRecord(value, max, key, keyMessage) {
    return zod_1.z.record(zod_1.z.string(), value).superRefine((record, ctx) => {
        const keys = Object.keys(record);
        if (keys.length > max)
            ctx.addIssue({ code: 'custom', message: `at most ${max} entries (${keys.length} given)` });
        for (const name of keys.filter((k) => !key.test(k)))
            ctx.addIssue({ code: 'custom', message: keyMessage, path: [name] });
    });
}
const McpStdioServerSchema = zod_1.z
    .object({
    command: zod_1.z.string().min(1).max(exports.MCP_CONFIG_LIMITS.argBytes),
    args: zod_1.z.array(zod_1.z.string().max(exports.MCP_CONFIG_LIMITS.argBytes)).max(exports.MCP_CONFIG_LIMITS.args).optional(),
    // Literal values, treated as secrets: redacted from everything an attempt reports.
    env: boundedRecord(zod_1.z.string().max(exports.MCP_CONFIG_LIMITS.envValueBytes), exports.MCP_CONFIG_LIMITS.envVars, VARIABLE_NAME, 'must be a variable name').optional(),
    cwd: zod_1.z.string().min(1).max(exports.MCP_CONFIG_LIMITS.argBytes).optional(),
})
    .strict();
const McpHttpServerSchema = zod_1.z
    .object({
    url: zod_1.z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(exports.MCP_CONFIG_LIMITS.argBytes),
    // Header name -> the worker variable holding its value (`Authorization: SEARCH_TOKEN`).
    headersEnv: boundedRecord(zod_1.z.string().regex(VARIABLE_NAME, 'must be the name of a variable in the worker environment'), exports.MCP_CONFIG_LIMITS.headers, HEADER_NAME, 'must be an HTTP header name').optional(),
})
    .strict();
/** One server: the kind its keys say (`command` or `url`), checked by that kind's schema so errors name its fields. */
const McpServerSchema = zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()).transform((raw, ctx) => {
    if ('url' in raw && 'command' in raw) {
        ctx.addIssue({ code: 'custom', message: 'give "command" (stdio) or "url" (Streamable HTTP), not both' });
        return zod_1.z.NEVER;
    }
    if (!('url' in raw) && !('command' in raw)) {
        ctx.addIssue({ code: 'custom', message: 'give "command" (a stdio server) or "url" (a Streamable HTTP server)' });
        return zod_1.z.NEVER;
    }
    const parsed = ('url' in raw ? McpHttpServerSchema : McpStdioServerSchema).safeParse(raw);
    if (parsed.success)
        return parsed.data;
    for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return zod_1.z.NEVER;
});
exports.McpServersSchema = boundedRecord(McpServerSchema, exports.MCP_CONFIG_LIMITS.servers, tool_names_1.SERVER_NAME_PATTERN, 'a server name has letters, digits, "-" and single "_", at most 32 characters').superRefine((servers, ctx) => {
    if (Object.hasOwn(servers, tool_names_1.RESERVED_TOOL_SERVER))
        ctx.addIssue({
            code: 'custom',
            message: `"${tool_names_1.RESERVED_TOOL_SERVER}" names teamrun's own tools`,
            path: [tool_names_1.RESERVED_TOOL_SERVER],
        });
});
function isHttpServer(server) {
    return 'url' in server;
}
