"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_MCP_PORT = void 0;
exports.mcpActor = mcpActor;
exports.registerMcp = registerMcp;
const node_os_1 = __importDefault(require("node:os"));
const commander_1 = require("commander");
const stdio_js_1 = require("@modelcontextprotocol/sdk/server/stdio.js");
const secrets_1 = require("../../activities/secrets");
const redact_1 = require("../../activities/redact");
const http_1 = require("../../mcp/http");
const server_1 = require("../../mcp/server");
const context_1 = require("../context");
const options_1 = require("../options");
const version_1 = require("../version");
exports.DEFAULT_MCP_PORT = 8765;
/**
 * Who the server acts as: `--actor`, else $TEAMRUN_ACTOR, else `mcp.actor` of teamrun.yaml, else
 * the login name. Fixed for the server's life; no tool takes an actor.
 */
function mcpActor(options, config, env) {
    return options.actor || env.TEAMRUN_ACTOR || config.mcp.actor || node_os_1.default.userInfo().username;
}
function registerMcp(program) {
    program
        .command('mcp')
        .description('serve the control plane to MCP clients (agents): over stdio, or over Streamable HTTP at /mcp with --http ' +
        `(requires $${http_1.TOKEN_ENV} as a bearer token); docs/mcp.md`)
        .option('--http', 'serve Streamable HTTP instead of stdio')
        .option('--port <n>', `with --http: the port (default ${exports.DEFAULT_MCP_PORT}; 0 picks a free one)`, options_1.intOption)
        .option('--host <address>', 'with --http: the address to bind', '127.0.0.1')
        .addOption(new commander_1.Option('--actor <name>', 'who this server acts as in every control message, checked by each run against governance.operators ' +
        '(default: $TEAMRUN_ACTOR, mcp.actor in teamrun.yaml, your login name)'))
        .action(async (options, command) => {
        const config = (0, context_1.configFrom)(command);
        // Checked before connecting: an HTTP server without its token never starts.
        const token = options.http ? (0, http_1.httpToken)(process.env) : null;
        await (0, context_1.withClient)(command, async (client) => {
            const secrets = (0, secrets_1.workerSecrets)(config, process.env);
            if (token)
                secrets.push({ name: http_1.TOKEN_ENV, value: token });
            const ctx = {
                client,
                config,
                actor: mcpActor(options, config, process.env),
                redactor: new redact_1.Redactor(secrets),
            };
            if (token)
                await serveOverHttp(ctx, options, token);
            else
                await serveOverStdio(ctx);
        });
    });
}
async function serveOverStdio(ctx) {
    const server = (0, server_1.createMcpServer)(ctx, (0, version_1.version)());
    const transport = new stdio_js_1.StdioServerTransport();
    const closed = new Promise((resolve) => {
        transport.onclose = resolve;
        process.stdin.once('end', resolve);
    });
    await server.connect(transport);
    // stdout carries the protocol; anything for a person goes to stderr.
    process.stderr.write(`teamrun mcp: serving over stdio as actor "${ctx.actor}"\n`);
    await closed;
    await server.close();
}
async function serveOverHttp(ctx, options, token) {
    const http = await (0, http_1.serveHttp)({
        host: options.host,
        port: options.port ?? exports.DEFAULT_MCP_PORT,
        token,
        serverFor: () => (0, server_1.createMcpServer)(ctx, (0, version_1.version)()),
    });
    const address = http.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    process.stderr.write(`teamrun mcp: serving http://${host}:${port}${http_1.MCP_PATH} as actor "${ctx.actor}"\n`);
    await new Promise((resolve) => {
        const stop = () => {
            http.close(() => resolve());
            http.closeAllConnections();
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
    });
}
