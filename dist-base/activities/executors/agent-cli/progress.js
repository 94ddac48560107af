"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CliProgress = exports.MAX_CONTENT_CHARS = void 0;
const pricing_1 = require("../../pricing");
const sessions_1 = require("./sessions");
/** The answer kept as the task's output, at most (outputs travel through history; the bound is 64 KiB of JSON). */
exports.MAX_CONTENT_CHARS = 32 * 1024;
/** Tool calls in flight remembered, at most (a stream that never ends them cannot grow the worker). */
const MAX_OPEN_TOOLS = 1_024;
/** Unknown event types named in the attempt's log, at most (all of them are counted). */
const MAX_UNKNOWN_NAMES = 8;
/**
 * What one attempt's stream has said so far: its session, its turns and their usage (charged to
 * the run as each turn ends), its tool calls (as `agent:tool` events), its answer and its result.
 */
class CliProgress {
    ctx;
    cli;
    reportsCost;
    onSession;
    sessionId;
    content = '';
    result;
    turns = 0;
    toolCalls = 0;
    unknown = 0;
    notJson = 0;
    unknownTypes = [];
    /** The run refused more budget: the attempt is being stopped. */
    refused = false;
    usage = new pricing_1.UsageRecords();
    tools = new Map();
    constructor(ctx, cli, 
    /** The CLI reports its run's total cost with its result: a turn of an unpriced model waits for it. */
    reportsCost, onSession) {
        this.ctx = ctx;
        this.cli = cli;
        this.reportsCost = reportsCost;
        this.onSession = onSession;
    }
    unknownType(type) {
        this.unknown++;
        const name = typeof type === 'string' ? type.slice(0, 40) : typeof type;
        if (this.unknownTypes.length < MAX_UNKNOWN_NAMES && !this.unknownTypes.includes(name))
            this.unknownTypes.push(name);
    }
    async apply(event) {
        switch (event.kind) {
            case 'session':
                if ((0, sessions_1.isSessionId)(event.id) && event.id !== this.sessionId) {
                    this.sessionId = event.id;
                    this.onSession(event.id);
                }
                return;
            case 'text':
                this.content = bounded(event.text);
                return;
            case 'tool-start':
                if (this.tools.size < MAX_OPEN_TOOLS)
                    this.tools.set(event.id, { name: event.name, turn: this.turns + 1, at: Date.now() });
                return;
            case 'tool-end': {
                const open = this.tools.get(event.id);
                if (!open)
                    return;
                this.tools.delete(event.id);
                this.toolCalls++;
                this.ctx.emit?.({
                    type: 'agent:tool',
                    turn: open.turn,
                    tool: open.name,
                    ms: Date.now() - open.at,
                    ok: event.ok,
                });
                return;
            }
            case 'turn':
                return this.turn(event.usage, event.tools);
            case 'result':
                this.result = { ...event, content: bounded(event.content) };
                if (event.content)
                    this.content = this.result.content;
                if (event.costUsd !== undefined)
                    await this.costOfRun(event.costUsd);
                return;
        }
    }
    async turn(usage, tools) {
        this.turns++;
        const { inputTokens = 0, outputTokens = 0 } = usage;
        this.ctx.emit?.({ type: 'agent:turn', turn: this.turns, inputTokens, outputTokens, tools: tools.slice(0, 64) });
        // Without a price for its model, a CLI that reports its cost at the end is charged then.
        const waitForCost = this.reportsCost && !hasPrice(this.ctx.config.prices, usage.model);
        await this.charge(waitForCost ? { ...usage, costUsd: 0 } : usage);
    }
    /** The CLI's own total: what the turns' prices did not already charge. */
    async costOfRun(totalUsd) {
        const charged = (0, pricing_1.priceUsage)(this.usage.records, this.ctx.config.prices)?.costUsd ?? 0;
        const rest = Math.round((totalUsd - charged) * 1e9) / 1e9;
        if (rest > 0)
            await this.charge({ model: `${this.cli} (reported cost)`, costUsd: rest });
    }
    async charge(usage) {
        this.usage.add(usage);
        if (this.ctx.budget && !(await this.ctx.budget.report(usage)))
            this.refused = true;
    }
}
exports.CliProgress = CliProgress;
function hasPrice(prices, model) {
    return model !== undefined && Object.hasOwn(prices, model);
}
function bounded(text) {
    return text.length > exports.MAX_CONTENT_CHARS
        ? `${text.slice(0, exports.MAX_CONTENT_CHARS)}\n[cut at ${exports.MAX_CONTENT_CHARS} characters]`
        : text;
}
