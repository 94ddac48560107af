"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.workerTools = workerTools;
const errors_1 = require("../../config/errors");
const mcp_servers_1 = require("../../config/mcp-servers");
const tool_names_1 = require("../../plan/tool-names");
const shell_env_1 = require("../executors/shell-env");
const types_1 = require("../executors/types");
const redact_1 = require("../redact");
const mcp_connection_1 = require("./mcp-connection");
const attempt_tools_1 = require("./attempt-tools");
/**
 * The tools of a worker with this config, environment and custom tools. Refuses (ConfigError) a
 * custom tool whose name does not fit or clashes with an MCP server's, and an HTTP server whose
 * header variable is not set: better a worker that does not start than one whose agents fail later.
 */
function workerTools(options) {
    const { config, env } = options;
    const servers = config.worker.mcpServers;
    const custom = new Map(Object.entries(options.tools ?? {}));
    for (const name of custom.keys())
        checkCustomName(name, servers);
    const shared = new Map();
    for (const [server, spec] of Object.entries(servers)) {
        if (!(0, mcp_servers_1.isHttpServer)(spec))
            continue;
        const headers = {};
        for (const [header, variable] of Object.entries(spec.headersEnv ?? {})) {
            const value = env[variable];
            if (value === undefined) {
                throw new errors_1.ConfigError(`worker.mcpServers.${server}.headersEnv.${header}: ` +
                    `the variable ${variable} is not set in the worker's environment`);
            }
            headers[header] = value;
        }
        shared.set(server, mcp_connection_1.McpConnection.http(server, spec, headers));
    }
    const passes = (0, shell_env_1.globMatcher)(shell_env_1.BASE_ENV);
    const base = {};
    for (const [name, value] of Object.entries(env))
        if (value !== undefined && passes(name))
            base[name] = value;
    const sources = {
        config,
        custom,
        shared,
        stdio(server, attempt) {
            const spec = servers[server];
            if (!spec || (0, mcp_servers_1.isHttpServer)(spec))
                return undefined;
            return mcp_connection_1.McpConnection.stdio(server, spec, { ...base, ...spec.env, ...(0, types_1.attemptEnv)(attempt) });
        },
        redactor: options.redactor ?? new redact_1.Redactor([]),
    };
    return {
        factory: (attempt) => Promise.resolve(new attempt_tools_1.AttemptTools(sources, attempt)),
        close: async () => {
            await Promise.all([...shared.values()].map((connection) => connection.close()));
        },
    };
}
function checkCustomName(name, servers) {
    const where = `createWorker({ tools }): "${name}"`;
    if (!tool_names_1.TOOL_NAME_PATTERN.test(name)) {
        throw new errors_1.ConfigError(`${where}: a tool name has letters, digits, "_" and "-", at most 64 characters`);
    }
    const server = (0, tool_names_1.serverOf)(name);
    if (server === tool_names_1.RESERVED_TOOL_SERVER) {
        throw new errors_1.ConfigError(`${where}: "${tool_names_1.RESERVED_TOOL_SERVER}${tool_names_1.TOOL_SEPARATOR}" names teamrun's own tools`);
    }
    if (server !== undefined && Object.hasOwn(servers, server)) {
        throw new errors_1.ConfigError(`${where}: "${server}" is an MCP server of worker.mcpServers; name the tool otherwise`);
    }
}
