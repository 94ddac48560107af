import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { temporalAddress } from './env';
import type { OnTestFinished } from './scenario';

const root = path.resolve(__dirname, '..', '..');

/**
 * An MCP client of `teamrun mcp` over stdio, from the sources (bin/teamrun.js), on the test's dev server and
 * `taskQueue`, as `actor` (TEAMRUN_ACTOR; empty: none); closed when the test finishes.
 */
export async function mcpStdioClient(
  taskQueue: string,
  finished: OnTestFinished,
  { actor = '', name = 'teamrun-test' }: { actor?: string; name?: string } = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'bin/teamrun.js'), 'mcp', '--address', temporalAddress(), '--task-queue', taskQueue],
    env: { ...(process.env as Record<string, string>), TEAMRUN_ACTOR: actor },
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  finished(() => client.close());
  return client;
}
