"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.TOOLS = void 0;
exports.createMcpServer = createMcpServer;
/**
 * The MCP server of `teamrun mcp`: the tools of CONTRACT.md ("Further additions") and one status
 * and one report resource per run. Tools are answered by this module, not by McpServer.registerTool:
 * the SDK refuses arguments that fail a schema with its own `-32602` text, where every refusal here
 * must start with the contract's code.
 */
const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const runs_1 = require("../client/runs");
const report_1 = require("../report");
const context_1 = require("./context");
const run_reads_1 = require("./run-reads");
const tool_1 = require("./tool");
const controls = __importStar(require("./tools/controls"));
const reads = __importStar(require("./tools/reads"));
exports.TOOLS = [
    reads.validatePlanTool,
    controls.startRunTool,
    reads.runStatusTool,
    reads.listRunsTool,
    reads.listTasksTool,
    reads.taskLogTool,
    controls.interruptTaskTool,
    controls.steerTaskTool,
    controls.abortRunTool,
    controls.adjudicateTool,
    controls.approveTool,
    controls.addTasksTool,
    controls.sendMessageTool,
    reads.readEventsTool,
];
/** Runs the resource list offers (newest first); any other run is read by its URI all the same. */
const LISTED_RUNS = 20;
const INSTRUCTIONS = 'teamrun runs teams of tasks durably on Temporal. Start a run with start_run (check it first with ' +
    'validate_plan), follow it with run_status (pass its cursor back with waitMs to wait for a change) and ' +
    'read_events, take over a task with interrupt_task and decide what it left with adjudicate. Control tools act ' +
    "as this server's configured actor, which each run checks against its governance.operators.";
/** A server for one connection (stdio) or one HTTP request; `version` is the package's. */
function createMcpServer(ctx, version) {
    const server = new mcp_js_1.McpServer({ name: 'teamrun', version }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
    const byName = new Map(exports.TOOLS.map((tool) => [tool.name, tool]));
    server.server.setRequestHandler(types_js_1.ListToolsRequestSchema, () => ({
        tools: exports.TOOLS.map((tool) => ({
            name: tool.name,
            title: tool.title,
            description: tool.description,
            inputSchema: (0, tool_1.inputJsonSchema)(tool),
            annotations: tool.annotations,
        })),
    }));
    server.server.setRequestHandler(types_js_1.CallToolRequestSchema, async (request, extra) => {
        const tool = byName.get(request.params.name);
        if (!tool)
            return (0, tool_1.refusal)(ctx, unknownTool(request.params.name));
        const progressToken = request.params._meta?.progressToken;
        const call = {
            signal: extra.signal,
            progress: async (progress, message) => {
                if (progressToken === undefined)
                    return;
                await extra.sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken, progress, message },
                });
            },
        };
        try {
            return (0, tool_1.answer)(ctx, await tool.run((0, tool_1.parseArguments)(tool, request.params.arguments), ctx, call));
        }
        catch (err) {
            return (0, tool_1.refusal)(ctx, err);
        }
    });
    registerResources(server, ctx);
    return server;
}
function unknownTool(name) {
    return new context_1.McpRefusal('not_found', `no tool "${name.slice(0, 100)}" (tools/list names them)`);
}
function registerResources(server, ctx) {
    const runsOf = async (kind) => ({
        resources: (await (0, runs_1.listTeamRuns)(ctx.client, { limit: LISTED_RUNS })).map((run) => ({
            uri: `teamrun://runs/${encodeURIComponent(run.workflowId)}/${kind}`,
            name: `${run.workflowId} ${kind}`,
            description: `${run.team ?? 'team run'}: ${run.state}`,
            mimeType: kind === 'status' ? 'application/json' : 'text/plain',
        })),
    });
    server.registerResource('run-status', new mcp_js_1.ResourceTemplate('teamrun://runs/{runId}/status', { list: () => runsOf('status') }), { title: "A run's status", description: 'state, task counts, budget and pending adjudications (JSON)' }, async (uri, variables) => {
        const overview = await (0, run_reads_1.readOverview)(ctx, decodeURIComponent(String(variables.runId)));
        const text = JSON.stringify(ctx.redactor.deep(overview), null, 2);
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    });
    server.registerResource('run-report', new mcp_js_1.ResourceTemplate('teamrun://runs/{runId}/report', { list: () => runsOf('report') }), { title: "A run's report", description: "the run's story from its history, as `teamrun report` prints it" }, async (uri, variables) => {
        const report = await (0, report_1.loadRunReport)(ctx.client, decodeURIComponent(String(variables.runId)));
        const text = ctx.redactor.text((0, report_1.renderReportText)(report));
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
    });
}
