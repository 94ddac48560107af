"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.McpHttpConfigError = exports.MCP_PATH = exports.TOKEN_ENV = exports.MIN_TOKEN_CHARS = exports.MAX_BODY_BYTES = void 0;
exports.httpToken = httpToken;
exports.bearerMatches = bearerMatches;
exports.serveHttp = serveHttp;
/**
 * `teamrun mcp --http`: Streamable HTTP at `/mcp`, stateless (a server and transport per POST, so
 * nothing is held between calls), behind `Authorization: Bearer $TEAMRUN_MCP_TOKEN` compared in
 * constant time. Bodies are bounded; on a loopback address the Host header must be that address,
 * so a web page cannot reach the server through DNS rebinding.
 */
const node_crypto_1 = require("node:crypto");
const node_http_1 = require("node:http");
const streamableHttp_js_1 = require("@modelcontextprotocol/sdk/server/streamableHttp.js");
const errors_1 = require("../errors");
/** A plan may be up to Temporal's 2 MB payload limit; JSON-RPC framing and escaping add some. */
exports.MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A shorter token is refused at start: it would be guessable. */
exports.MIN_TOKEN_CHARS = 16;
exports.TOKEN_ENV = 'TEAMRUN_MCP_TOKEN';
exports.MCP_PATH = '/mcp';
class McpHttpConfigError extends errors_1.TeamrunError {
    code = 'mcp_http_config';
}
exports.McpHttpConfigError = McpHttpConfigError;
/** The token from the environment, refused when absent or short. */
function httpToken(env) {
    const token = env[exports.TOKEN_ENV];
    if (!token)
        throw new McpHttpConfigError(`teamrun mcp --http needs a bearer token: set ${exports.TOKEN_ENV} (for example to \`openssl rand -hex 32\`)`);
    if (token.length < exports.MIN_TOKEN_CHARS)
        throw new McpHttpConfigError(`${exports.TOKEN_ENV} is ${token.length} characters: give at least ${exports.MIN_TOKEN_CHARS}`);
    return token;
}
const digest = (value) => (0, node_crypto_1.createHash)('sha256').update(value).digest();
/** Compares digests, so neither the length nor any prefix of the token shows in the time taken. */
function bearerMatches(header, token) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
    return (0, node_crypto_1.timingSafeEqual)(digest(given), digest(token));
}
function jsonRpcError(res, status, message, headers = {}) {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
async function readBody(req) {
    const chunks = [];
    let size = 0;
    for await (const chunk of req) {
        size += chunk.length;
        if (size > exports.MAX_BODY_BYTES)
            throw new RangeError(`request body over ${exports.MAX_BODY_BYTES} bytes`);
        chunks.push(chunk);
    }
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
async function serveHttp(options) {
    const { token } = options;
    const http = (0, node_http_1.createServer)((req, res) => void handle(req, res));
    let allowedHosts;
    async function handle(req, res) {
        const path = (req.url ?? '').split('?')[0];
        if (path !== exports.MCP_PATH)
            return jsonRpcError(res, 404, `not found: the MCP endpoint is ${exports.MCP_PATH}`);
        if (!bearerMatches(req.headers.authorization, token))
            return jsonRpcError(res, 401, `unauthorized: send Authorization: Bearer <${exports.TOKEN_ENV}>`, {
                'www-authenticate': 'Bearer realm="teamrun"',
            });
        if (req.method !== 'POST')
            return jsonRpcError(res, 405, 'method not allowed: this server is stateless, POST each message', {
                allow: 'POST',
            });
        let body;
        try {
            body = await readBody(req);
        }
        catch (err) {
            const tooLarge = err instanceof RangeError;
            return jsonRpcError(res, tooLarge ? 413 : 400, tooLarge ? err.message : 'request body is not JSON');
        }
        const server = options.serverFor();
        const transport = new streamableHttp_js_1.StreamableHTTPServerTransport({
            sessionIdGenerator: undefined,
            enableDnsRebindingProtection: allowedHosts !== undefined,
            allowedHosts,
        });
        res.on('close', () => {
            void transport.close();
            void server.close();
        });
        try {
            await server.connect(transport);
            await transport.handleRequest(req, res, body);
        }
        catch (err) {
            if (!res.headersSent)
                jsonRpcError(res, 500, `internal error: ${err.message}`);
        }
    }
    await new Promise((resolve, reject) => {
        http.once('error', reject);
        http.listen(options.port, options.host, () => resolve());
    });
    const { port } = http.address();
    if (LOOPBACK.has(options.host))
        allowedHosts = [...LOOPBACK].map((h) => `${h.includes(':') ? `[${h}]` : h}:${port}`);
    return http;
}
