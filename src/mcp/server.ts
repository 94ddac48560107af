/**
 * The MCP server of `teamrun mcp`: the tools of CONTRACT.md ("Further additions") and one status
 * and one report resource per run. Tools are answered by this module, not by McpServer.registerTool:
 * the SDK refuses arguments that fail a schema with its own `-32602` text, where every refusal here
 * must start with the contract's code.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WorkflowNotFoundError } from '@temporalio/client';
import { endedRunText } from '../client/result';
import { listTeamRuns } from '../client/runs';
import { loadRunReport, renderReportText } from '../report';
import { McpRefusal, type McpContext } from './context';
import { readOverview } from './run-reads';
import { answer, inputJsonSchema, parseArguments, refusal, type ToolCall, type ToolSpec } from './tool';
import * as controls from './tools/controls';
import * as reads from './tools/reads';

export const TOOLS: ReadonlyArray<ToolSpec> = [
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
  controls.reopenTaskTool,
  controls.approveTool,
  controls.addTasksTool,
  controls.sendMessageTool,
  reads.readEventsTool,
];

/** Runs the resource list offers (newest first); any other run is read by its URI all the same. */
const LISTED_RUNS = 20;

const INSTRUCTIONS =
  'teamrun runs teams of tasks durably on Temporal. Start a run with start_run (check it first with ' +
  'validate_plan), follow it with run_status (pass its cursor back with waitMs to wait for a change) and ' +
  'read_events, take over a task with interrupt_task and decide what it left with adjudicate. Control tools act ' +
  "as this server's configured actor, which each run checks against its governance.operators.";

/** A server for one connection (stdio) or one HTTP request; `version` is the package's. */
export function createMcpServer(ctx: McpContext, version: string): McpServer {
  const server = new McpServer(
    { name: 'teamrun', version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(TOOLS.map((tool) => [tool.name, tool]));
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputJsonSchema(tool),
      annotations: tool.annotations,
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) return refusal(ctx, unknownTool(request.params.name));
    if (ctx.config.mcp.readOnly && tool.annotations.readOnlyHint !== true) return refusal(ctx, readOnly(tool.name));
    const progressToken = request.params._meta?.progressToken;
    const call: ToolCall = {
      signal: extra.signal,
      progress: async (progress, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, message },
        });
      },
    };
    try {
      return answer(ctx, await tool.run(parseArguments(tool, request.params.arguments), ctx, call));
    } catch (err) {
      // A control meeting a run that has just ended says so, with its status, not only that it is not open.
      const ended = err instanceof WorkflowNotFoundError ? await endedRunText(ctx.client, err.workflowId) : null;
      return refusal(ctx, ended ? new McpRefusal('not_found', `${ended} (run_status shows its result)`) : err);
    }
  });
  registerResources(server, ctx);
  return server;
}

function readOnly(name: string): McpRefusal {
  return new McpRefusal(
    'read_only',
    `${name} changes state and this server is read-only (mcp.readOnly in its config): ask an operator`,
  );
}

function unknownTool(name: string): McpRefusal {
  return new McpRefusal('not_found', `no tool "${name.slice(0, 100)}" (tools/list names them)`);
}

function registerResources(server: McpServer, ctx: McpContext): void {
  const runsOf = async (kind: 'status' | 'report') => ({
    resources: (await listTeamRuns(ctx.client, { limit: LISTED_RUNS })).map((run) => ({
      uri: `teamrun://runs/${encodeURIComponent(run.workflowId)}/${kind}`,
      name: `${run.workflowId} ${kind}`,
      description: `${run.team ?? 'team run'}: ${run.state}`,
      mimeType: kind === 'status' ? 'application/json' : 'text/plain',
    })),
  });
  server.registerResource(
    'run-status',
    new ResourceTemplate('teamrun://runs/{runId}/status', { list: () => runsOf('status') }),
    { title: "A run's status", description: 'state, task counts, budget and pending adjudications (JSON)' },
    async (uri, variables) => {
      const overview = await readOverview(ctx, decodeURIComponent(String(variables.runId)));
      const text = JSON.stringify(ctx.redactor.deep(overview), null, 2);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );
  server.registerResource(
    'run-report',
    new ResourceTemplate('teamrun://runs/{runId}/report', { list: () => runsOf('report') }),
    { title: "A run's report", description: "the run's story from its history, as `teamrun report` prints it" },
    async (uri, variables) => {
      const report = await loadRunReport(ctx.client, decodeURIComponent(String(variables.runId)));
      const text = ctx.redactor.text(renderReportText(report));
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
    },
  );
}
