// A tiny stdio MCP server for the attempt-access test: `attempt_vars` answers the names (never the values) of the
// TEAMRUN_* variables it was started with, so a test sees whether the attempt's gateway reached it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'attempt-env', version: '1.0.0' });
server.registerTool(
  'attempt_vars',
  { description: 'Names the TEAMRUN_* variables of this server', annotations: { readOnlyHint: true } },
  async () => {
    const names = Object.keys(process.env).filter((name) => name.startsWith('TEAMRUN_'));
    return { content: [{ type: 'text', text: JSON.stringify(names.sort()) }] };
  },
);
await server.connect(new StdioServerTransport());
