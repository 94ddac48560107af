"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.McpConnection = exports.FENCING_TOKEN_META = exports.MCP_LIMITS = void 0;
/**
 * One MCP server as the worker reaches it, through the official SDK's Client: a stdio command
 * started for one attempt, or a Streamable HTTP URL the worker's attempts share. A connection
 * that breaks (the process exits, the server stops answering) fails the call in flight and is
 * opened again for the next one, a bounded number of times.
 */
const index_js_1 = require("@modelcontextprotocol/sdk/client/index.js");
const stdio_js_1 = require("@modelcontextprotocol/sdk/client/stdio.js");
const streamableHttp_js_1 = require("@modelcontextprotocol/sdk/client/streamableHttp.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const content_1 = require("./content");
exports.MCP_LIMITS = {
    /** Starting (or reaching) a server and its `initialize` handshake. */
    connectTimeoutMs: 30_000,
    /** Opens of one connection: the first and the restarts after it broke. */
    opens: 6,
    toolsPerServer: 256,
    listPages: 16,
    /** One JSON-RPC message from a stdio server; one HTTP response body. */
    messageBytes: 16 * 1024 * 1024,
    /** The end of a stdio server's stderr kept to explain why it died. */
    stderrTailBytes: 2048,
};
/** The `_meta` key every `tools/call` carries the attempt's fencing token in (CONTRACT). */
exports.FENCING_TOKEN_META = 'teamrun/fencingToken';
class McpConnection {
    server;
    transport;
    client;
    opening;
    opens = 0;
    stderrTail = '';
    closed = false;
    constructor(server, transport) {
        this.server = server;
        this.transport = transport;
    }
    /** A stdio server, started on first use with exactly `env` (the caller's allowlist). */
    static stdio(server, spec, env) {
        return new McpConnection(server, (stderr) => {
            const transport = new stdio_js_1.StdioClientTransport({
                command: spec.command,
                args: spec.args ?? [],
                env,
                ...(spec.cwd ? { cwd: spec.cwd } : {}),
                // Piped, never inherited: the worker's log is not the server's, and its tail explains a death.
                stderr: 'pipe',
                maxBufferSize: exports.MCP_LIMITS.messageBytes,
            });
            transport.stderr?.on('data', (chunk) => stderr(chunk.toString('utf8')));
            return transport;
        });
    }
    /** A Streamable HTTP server, with `headers` (values from the worker's environment) on every request. */
    static http(server, spec, headers) {
        return new McpConnection(server, () => new streamableHttp_js_1.StreamableHTTPClientTransport(new URL(spec.url), {
            requestInit: { headers },
            fetch: cappedFetch(exports.MCP_LIMITS.messageBytes),
        }));
    }
    /** The server's tools, at most MCP_LIMITS.toolsPerServer of them. */
    async listTools(signal) {
        const client = await this.connect(signal);
        const tools = [];
        let cursor;
        for (let page = 0; page < exports.MCP_LIMITS.listPages && tools.length < exports.MCP_LIMITS.toolsPerServer; page += 1) {
            const listed = await client
                .listTools(cursor ? { cursor } : {}, { signal, timeout: exports.MCP_LIMITS.connectTimeoutMs })
                .catch((err) => this.broken(client, err));
            tools.push(...listed.tools.slice(0, exports.MCP_LIMITS.toolsPerServer - tools.length));
            cursor = listed.nextCursor;
            if (!cursor)
                break;
        }
        return tools;
    }
    /** Calls `tool` with the attempt's fencing token in `_meta`; every failure is `{ ok: false }`. */
    async call(tool, args, fencingToken, options) {
        try {
            const client = await this.connect(options.signal);
            const result = await client
                .callTool({ name: tool, arguments: args, _meta: { [exports.FENCING_TOKEN_META]: fencingToken } }, undefined, {
                signal: options.signal,
                timeout: options.timeoutMs,
            })
                .catch((err) => this.broken(client, err));
            const text = (0, content_1.mcpResultText)(result);
            return result.isError ? { ok: false, error: text || 'the tool reported an error' } : { ok: true, content: text };
        }
        catch (err) {
            return { ok: false, error: this.describe(err, options) };
        }
    }
    async close() {
        this.closed = true;
        const client = this.client;
        this.client = undefined;
        await client?.close().catch(() => undefined);
    }
    connect(signal) {
        if (this.client)
            return Promise.resolve(this.client);
        this.opening ??= this.open(signal).finally(() => (this.opening = undefined));
        return this.opening;
    }
    async open(signal) {
        if (this.closed)
            throw new Error(`MCP server "${this.server}" is closed`);
        if (this.opens >= exports.MCP_LIMITS.opens) {
            throw new Error(`MCP server "${this.server}" broke ${this.opens} times; it is not started again for this attempt` +
                this.lastWords());
        }
        this.opens += 1;
        this.stderrTail = '';
        const client = new index_js_1.Client({ name: 'teamrun', version: '1' }, { capabilities: {} });
        const transport = this.transport((chunk) => {
            this.stderrTail = (this.stderrTail + chunk).slice(-exports.MCP_LIMITS.stderrTailBytes);
        });
        client.onclose = () => {
            if (this.client === client)
                this.client = undefined;
        };
        try {
            await client.connect(transport, { signal, timeout: exports.MCP_LIMITS.connectTimeoutMs });
        }
        catch (err) {
            await client.close().catch(() => undefined);
            throw new Error(`MCP server "${this.server}" did not start: ${err.message}${this.lastWords()}`);
        }
        if (this.closed) {
            await client.close().catch(() => undefined);
            throw new Error(`MCP server "${this.server}" is closed`);
        }
        this.client = client;
        return client;
    }
    /**
     * A request failed. An error the server answered with leaves the connection as it is; anything
     * else (the process gone, the connection lost) drops it, so the next call opens it again.
     */
    async broken(client, err) {
        const answered = err instanceof types_js_1.McpError && err.code !== types_js_1.ErrorCode.ConnectionClosed;
        if (!answered && !isAbort(err) && this.client === client) {
            this.client = undefined;
            await client.close().catch(() => undefined);
        }
        throw err;
    }
    describe(err, options) {
        const tool = `MCP server "${this.server}"`;
        if (options.signal.aborted || isAbort(err))
            return `the call to ${tool} was cancelled`;
        if (err instanceof types_js_1.McpError && err.code === types_js_1.ErrorCode.RequestTimeout)
            return `${tool} did not answer within ${options.timeoutMs} ms`;
        if (err instanceof types_js_1.McpError && err.code === types_js_1.ErrorCode.ConnectionClosed)
            return `${tool} closed the connection during the call (it is started again for the next call)${this.lastWords()}`;
        return (0, content_1.boundedText)(err?.message ?? String(err));
    }
    lastWords() {
        const tail = this.stderrTail.trim();
        return tail ? `; its stderr ended: ${tail}` : '';
    }
}
exports.McpConnection = McpConnection;
function isAbort(err) {
    return err instanceof Error && err.name === 'AbortError';
}
/** fetch with each response body cut off (an error) past `maxBytes`: a server cannot flood the worker. */
function cappedFetch(maxBytes) {
    return async (url, init) => {
        const response = await fetch(url, init);
        if (!response.body)
            return response;
        let seen = 0;
        const capped = response.body.pipeThrough(new TransformStream({
            transform(chunk, controller) {
                seen += chunk.byteLength;
                if (seen > maxBytes)
                    controller.error(new Error(`MCP response over ${maxBytes} bytes`));
                else
                    controller.enqueue(chunk);
            },
        }));
        return new Response(capped, {
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
        });
    };
}
