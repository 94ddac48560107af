import os from 'node:os';
import { Option, type Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { workerSecrets } from '../activities/secrets';
import { Redactor } from '../activities/redact';
import type { TeamrunConfig } from '../config/config';
import { attemptAccess, type McpContext } from './context';
import { httpToken, MCP_PATH, serveHttp, TOKEN_ENV } from './http';
import { createMcpServer } from './server';
import { configFrom, withClient } from '../operator/context';
import { intOption } from '../operator/options';
import { version } from '../operator/version';

interface McpOptions {
  http?: boolean;
  port: number;
  host: string;
  actor?: string;
}

export const DEFAULT_MCP_PORT = 8765;

/**
 * Who the server acts as: `--actor`, else $TEAMRUN_ACTOR, else `mcp.actor` of teamrun.yaml, else
 * the login name. Fixed for the server's life; no tool takes an actor.
 */
export function mcpActor(options: McpOptions, config: TeamrunConfig, env: NodeJS.ProcessEnv): string {
  return options.actor || env.TEAMRUN_ACTOR || config.mcp.actor || os.userInfo().username;
}

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve the control plane to MCP clients (agents): over stdio, or over Streamable HTTP at /mcp with --http ' +
        `(requires $${TOKEN_ENV} as a bearer token); docs/mcp.md`,
    )
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <n>', `with --http: the port (default ${DEFAULT_MCP_PORT}; 0 picks a free one)`, intOption)
    .option('--host <address>', 'with --http: the address to bind', '127.0.0.1')
    .addOption(
      new Option(
        '--actor <name>',
        'who this server acts as in every control message, checked by each run against governance.operators ' +
          '(default: $TEAMRUN_ACTOR, mcp.actor in teamrun.yaml, your login name)',
      ),
    )
    .action(async (options: McpOptions, command: Command) => {
      const config = configFrom(command);
      // Checked before connecting: an HTTP server without its token never starts.
      const token = options.http ? httpToken(process.env) : null;
      await withClient(command, async (client) => {
        const secrets = workerSecrets(config, process.env);
        if (token) secrets.push({ name: TOKEN_ENV, value: token });
        const ctx: McpContext = {
          client,
          config,
          actor: mcpActor(options, config, process.env),
          redactor: new Redactor(secrets),
          ...(attemptAccess(process.env) ? { attempt: attemptAccess(process.env) } : {}),
        };
        const unlinked = unlinkedWarning(process.env, ctx.attempt);
        if (unlinked) process.stderr.write(unlinked);
        if (token) await serveOverHttp(ctx, options, token);
        else await serveOverStdio(ctx);
      });
    });
}

/**
 * Inside a task (its fencing token is set) but without the attempt's gateway: an MCP server of an
 * agent task not marked `attemptAccess: true`. Its `start_run` then starts top-level runs, which
 * the task's end does not stop; said once on stderr, so the worker's log shows it.
 */
export function unlinkedWarning(env: NodeJS.ProcessEnv, attempt: McpContext['attempt']): string | null {
  if (attempt || !env.TEAMRUN_FENCING_TOKEN) return null;
  const task = (env.TEAMRUN_TASK_KEY ?? '?').slice(0, 200);
  const run = (env.TEAMRUN_WORKFLOW_ID ?? '?').slice(0, 200);
  return (
    `teamrun mcp: WARNING: inside task "${task}" of run "${run}" without its attempt's gateway ` +
    '($TEAMRUN_ATTEMPT_SOCKET): runs that start_run starts are not linked to the task and are not stopped when ' +
    'it ends; give this server attemptAccess: true under worker.mcpServers (docs/mcp.md)\n'
  );
}

async function serveOverStdio(ctx: McpContext): Promise<void> {
  const server = createMcpServer(ctx, version());
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  // stdout carries the protocol; anything for a person goes to stderr.
  process.stderr.write(`teamrun mcp: serving over stdio as actor "${ctx.actor}"\n`);
  await closed;
  await server.close();
}

async function serveOverHttp(ctx: McpContext, options: McpOptions, token: string): Promise<void> {
  const http = await serveHttp({
    host: options.host,
    port: options.port ?? DEFAULT_MCP_PORT,
    token,
    serverFor: () => createMcpServer(ctx, version()),
  });
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  process.stderr.write(`teamrun mcp: serving http://${host}:${port}${MCP_PATH} as actor "${ctx.actor}"\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      http.close(() => resolve());
      http.closeAllConnections();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
