"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AttemptTools = exports.TOOL_FAILURE_TYPES = exports.DEFAULT_TOOL_TIMEOUT_MS = void 0;
const graph_1 = require("../../plan/graph");
const tool_names_1 = require("../../plan/tool-names");
const types_1 = require("../executors/types");
const mcp_tools_1 = require("./mcp-tools");
/** A tool call's time when the task sets no `toolTimeoutMs`. */
exports.DEFAULT_TOOL_TIMEOUT_MS = 60_000;
exports.TOOL_FAILURE_TYPES = {
    /** `resolve` met a name the worker does not have: the plan is wrong, retrying will not help (non-retryable). */
    unknownTool: 'TeamUnknownTool',
    /** A server the task names could not list its tools: perhaps it will for the next attempt (retryable). */
    serverFailed: 'TeamToolServerFailed',
};
/** One attempt's toolbox: the calls it may make are the names `resolve` gave it. */
class AttemptTools {
    sources;
    attempt;
    started = new Map();
    listings = new Map();
    targets = new Map();
    closed = false;
    constructor(sources, attempt) {
        this.sources = sources;
        this.attempt = attempt;
        // A stopped attempt stops its servers at once, whatever the loop is doing.
        if (attempt.signal.aborted)
            this.closed = true;
        else
            attempt.signal.addEventListener('abort', () => void this.close(), { once: true });
    }
    async resolve(patterns) {
        const found = new Map();
        // Every server named is started at once; each listing is awaited (and its failure met) in turn below.
        for (const pattern of patterns) {
            const server = (0, tool_names_1.wildcardServer)(pattern) ?? (0, tool_names_1.serverOf)(pattern);
            if (server !== undefined && this.isServer(server))
                this.listing(server).catch(() => undefined);
        }
        for (const pattern of patterns) {
            if (!tool_names_1.ToolPatternSchema.safeParse(pattern).success)
                throw unknownTool(`"${pattern}" is not a tool name`);
            const wildcard = (0, tool_names_1.wildcardServer)(pattern);
            const server = wildcard ?? (0, tool_names_1.serverOf)(pattern);
            // teamrun's own tools live in the agent loop.
            if (server === tool_names_1.RESERVED_TOOL_SERVER)
                continue;
            const mcp = server !== undefined && this.isServer(server);
            const listing = mcp ? await this.listing(server) : undefined;
            if (wildcard !== undefined) {
                const customs = [...this.sources.custom.keys()].filter((name) => (0, tool_names_1.serverOf)(name) === wildcard);
                if (!mcp && customs.length === 0)
                    throw unknownTool(this.unknownServer(pattern, wildcard));
                for (const name of customs)
                    found.set(name, this.custom(name));
                for (const [name, tool] of listing?.tools ?? [])
                    found.set(name, { server: wildcard, ...tool });
            }
            else if (this.sources.custom.has(pattern)) {
                found.set(pattern, this.custom(pattern));
            }
            else if (listing && server !== undefined) {
                const tool = listing.tools.get(pattern);
                if (!tool)
                    throw unknownTool(unknownInServer(pattern, server, listing));
                found.set(pattern, { server, ...tool });
            }
            else {
                throw unknownTool(server !== undefined ? this.unknownServer(pattern, server) : this.unknownName(pattern, this.customNames()));
            }
        }
        for (const [name, target] of found)
            this.targets.set(name, target);
        return [...found.values()].map((target) => target.spec);
    }
    async call(name, args, options) {
        const target = this.targets.get(name);
        if (this.closed)
            return { ok: false, error: 'the attempt has ended: its tools are closed' };
        if (!target) {
            const known = [...this.targets.keys()];
            const guess = (0, graph_1.nearest)(name, known);
            return {
                ok: false,
                error: `unknown tool "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}; ` +
                    `this task's tools: ${known.join(', ') || 'none'}`,
            };
        }
        const timeoutMs = options.timeoutMs ?? exports.DEFAULT_TOOL_TIMEOUT_MS;
        const signal = AbortSignal.any([options.signal, this.attempt.signal]);
        const result = 'custom' in target
            ? await this.callCustom(target.custom, args, signal, timeoutMs)
            : await this.callMcp(target.server, target.original, args, signal, timeoutMs);
        const { redactor } = this.sources;
        return result.ok
            ? { ok: true, content: redactor.text(result.content) }
            : { ok: false, error: redactor.text(result.error) };
    }
    async close() {
        this.closed = true;
        const started = [...this.started.values()];
        this.started.clear();
        await Promise.all(started.map((connection) => connection.close()));
    }
    async callMcp(server, tool, args, signal, timeoutMs) {
        const given = args ?? {};
        if (typeof given !== 'object' || Array.isArray(given)) {
            return { ok: false, error: 'invalid arguments: (arguments): must be a JSON object' };
        }
        const connection = this.connection(server);
        if (!connection)
            return { ok: false, error: 'the attempt has ended: its tools are closed' };
        return connection.call(tool, given, this.attempt.fencingToken, { signal, timeoutMs });
    }
    async callCustom(name, args, signal, timeoutMs) {
        const tool = this.sources.custom.get(name);
        if (!tool)
            return { ok: false, error: `unknown tool "${name}"` };
        const timeout = AbortSignal.timeout(timeoutMs);
        const bounded = AbortSignal.any([signal, timeout]);
        const { signal: _attemptSignal, ...identity } = this.attempt;
        // A tool that ignores its signal still answers the model when the time is up; what it does after is its own.
        const stopped = new Promise((resolve) => {
            const answer = () => resolve({
                ok: false,
                error: timeout.aborted
                    ? `tool "${name}" did not answer within ${timeoutMs} ms`
                    : `the call to "${name}" was cancelled`,
            });
            if (bounded.aborted)
                answer();
            else
                bounded.addEventListener('abort', answer, { once: true });
        });
        return Promise.race([tool.invoke(args, { ...identity, signal: bounded }), stopped]);
    }
    isServer(server) {
        return Object.hasOwn(this.sources.config.worker.mcpServers, server);
    }
    /** The server's connection: the worker's for an HTTP server, this attempt's own for a stdio one. */
    connection(server) {
        const shared = this.sources.shared.get(server);
        if (shared)
            return shared;
        if (this.closed)
            return undefined;
        let own = this.started.get(server);
        if (!own) {
            const { signal: _signal, ...identity } = this.attempt;
            own = this.sources.stdio(server, identity);
            if (own)
                this.started.set(server, own);
        }
        return own;
    }
    listing(server) {
        let listing = this.listings.get(server);
        if (!listing) {
            const connection = this.connection(server);
            listing = connection
                ? connection.listTools(this.attempt.signal).then((tools) => (0, mcp_tools_1.serverTools)(server, tools), (err) => {
                    throw new types_1.ExecutorError(this.sources.redactor.text(`MCP server "${server}" could not list its tools: ${err.message}`), { type: exports.TOOL_FAILURE_TYPES.serverFailed });
                })
                : Promise.reject(new types_1.ExecutorError('the attempt has ended: its tools are closed', { type: exports.TOOL_FAILURE_TYPES.serverFailed }));
            this.listings.set(server, listing);
        }
        return listing;
    }
    custom(name) {
        const tool = this.sources.custom.get(name);
        if (!tool)
            throw unknownTool(`unknown tool "${name}"`);
        return {
            custom: name,
            spec: {
                name,
                ...(tool.description !== undefined ? { description: tool.description } : {}),
                parameters: tool.parameters,
                idempotent: tool.idempotent,
            },
        };
    }
    customNames() {
        return [...this.sources.custom.keys()];
    }
    unknownServer(pattern, server) {
        const servers = [...Object.keys(this.sources.config.worker.mcpServers), ...this.customNames().map(tool_names_1.serverOf)];
        const guess = (0, graph_1.nearest)(server, [...new Set(servers.filter((s) => s !== undefined))]);
        return `unknown tool "${pattern}": this worker has no MCP server or custom tools "${server}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
    }
    unknownName(pattern, candidates) {
        const guess = (0, graph_1.nearest)(pattern, candidates);
        return `unknown tool "${pattern}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
    }
}
exports.AttemptTools = AttemptTools;
function unknownInServer(name, server, listing) {
    const why = listing.leftOut.get(name);
    if (why)
        return `tool "${name}" of MCP server "${server}" is left out: ${why}`;
    const guess = (0, graph_1.nearest)(name, [...listing.tools.keys()]);
    return `unknown tool "${name}": MCP server "${server}" has no such tool${guess ? ` (did you mean "${guess}"?)` : ''}`;
}
function unknownTool(message) {
    return new types_1.ExecutorError(message, { nonRetryable: true, type: exports.TOOL_FAILURE_TYPES.unknownTool });
}
