// A tiny stdio MCP server for the tool tests, made with the SDK's McpServer: `echo` answers with
// the `_meta` its request carried and the environment it was started with, `crash` exits during
// the call, `slow` answers after a while (or when cancelled). With MCP_STARTS_DIR set, it writes
// started-<pid> there when it starts, and slow-<pid> when a `slow` call begins.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const marks = process.env.MCP_STARTS_DIR;
const mark = (name) => marks && writeFileSync(path.join(marks, `${name}-${process.pid}`), `${process.pid}\n`);
mark('started');
const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Answers with what it was called with',
    inputSchema: { text: z.string().optional() },
    annotations: { idempotentHint: true },
  },
  async ({ text }, extra) => ({
    content: [
      {
        type: 'text',
        text: JSON.stringify({ text, meta: extra._meta ?? null, env: process.env, pid: process.pid }),
      },
    ],
  }),
);
server.registerTool('crash', { description: 'Exits while it is called' }, async () => process.exit(3));
server.registerTool('fail', { description: 'Answers with an error result' }, async () => ({
  content: [{ type: 'text', text: 'it went wrong' }],
  isError: true,
}));
server.registerTool('slow', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
  mark('slow');
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    extra.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()));
  });
  return { content: [{ type: 'text', text: 'slept' }] };
});
server.registerTool('dotted.name', { description: 'A name OpenAI does not allow' }, async () => ({
  content: [{ type: 'text', text: 'dotted' }],
}));
process.stderr.write('echo server ready\n');
await server.connect(new StdioServerTransport());
