/**
 * What every tool of `teamrun mcp` works with: one Temporal client for the server's life, the
 * config it was started with, the identity it acts as, and the redactor its answers pass through.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Redactor } from '../activities/redact';
import { teamRunHandle, type TeamRunHandle } from '../client/handle';
import type { TeamrunConfig } from '../config/config';
import { TeamrunError } from '../errors';

export interface McpContext {
  client: Client;
  config: TeamrunConfig;
  /**
   * Who this server speaks as in every control message (`--actor`, $TEAMRUN_ACTOR, `mcp.actor`):
   * fixed when it starts, never taken from a tool's arguments, so a model cannot claim to be an operator.
   */
  actor: string;
  redactor: Redactor;
  /**
   * Set when this server runs inside a task (an agent's stdio tool server, a shell's process): its attempt's gateway
   * ($TEAMRUN_ATTEMPT_SOCKET, $TEAMRUN_ATTEMPT_SECRET), through which `start_run` starts runs linked to the attempt.
   */
  attempt?: { socket: string; secret: string };
}

/** The attempt gateway this process may speak through, when it runs inside a task. */
export function attemptAccess(env: NodeJS.ProcessEnv): McpContext['attempt'] {
  const { TEAMRUN_ATTEMPT_SOCKET: socket, TEAMRUN_ATTEMPT_SECRET: secret } = env;
  return socket && secret ? { socket, secret } : undefined;
}

/**
 * A tool call that cannot be done; `code` is the contract's (or the door's own, docs/mcp.md) and
 * the text an agent sees starts with it.
 */
export class McpRefusal extends TeamrunError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'McpRefusal';
  }
}

/** A run's handle, once Temporal knows the id: an unknown one is refused `not_found` before anything is sent. */
export async function runHandle(ctx: McpContext, runId: string): Promise<TeamRunHandle> {
  const handle = teamRunHandle(ctx.client, runId);
  try {
    await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notFound(ctx, runId);
    throw err;
  }
  return handle;
}

export function notFound(ctx: McpContext, runId: string): McpRefusal {
  return new McpRefusal(
    'not_found',
    `no run with id "${runId}" in namespace ${ctx.client.options.namespace}; list_runs shows the runs there`,
  );
}
