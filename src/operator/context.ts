import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { loadConfig, type TeamrunConfig } from '../config/config';
import { TeamrunError } from '../errors';

/** Options every command shares (declared on the root program). */
export interface GlobalOptions {
  config?: string;
  address?: string;
  namespace?: string;
  taskQueue?: string;
  profile?: string;
}

/** The config, with the command line's global options applied over file and environment. */
export function configFrom(command: Command): TeamrunConfig & { file: string | null } {
  const options = command.optsWithGlobals<GlobalOptions>();
  // Set for the whole process: the connection's credentials are read from the same profile later.
  if (options.profile) process.env.TEMPORAL_PROFILE = options.profile;
  const config = loadConfig(options.config);
  if (options.address) config.connection.address = options.address;
  if (options.namespace) config.connection.namespace = options.namespace;
  if (options.taskQueue) config.connection.taskQueue = options.taskQueue;
  return config;
}

/** Runs `fn` with a client for the command's config, closing its connection after, whatever happened. */
export async function withClient<T>(
  command: Command,
  fn: (client: Client, config: TeamrunConfig) => Promise<T>,
): Promise<T> {
  const { client, config } = await clientFrom(command);
  try {
    return await fn(client, config);
  } finally {
    await client.connection.close();
  }
}

async function clientFrom(command: Command): Promise<{ client: Client; config: TeamrunConfig }> {
  const config = configFrom(command);
  // The Temporal client loads only for the commands that talk to a server.
  const { connectClient } = require('../client') as typeof import('../client');
  try {
    return { client: await connectClient(config), config };
  } catch (err) {
    const { CodecError } = require('../codec') as typeof import('../codec');
    if (err instanceof CodecError) throw new CliError(err.message);
    throw new CliError(
      `cannot reach Temporal at ${config.connection.address} ` +
        `(namespace ${config.connection.namespace}): ${(err as Error).message}\n` +
        'Start one with `teamrun dev`, or point TEMPORAL_ADDRESS, a Temporal profile ' +
        '(TEMPORAL_PROFILE) or teamrun.yaml at your cluster; `teamrun doctor` checks the setup.',
    );
  }
}

/** An error meant for the user: printed without a stack, exit code 1 unless given. */
export class CliError extends TeamrunError {
  readonly code = 'cli_error';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * Reads or writes a file the user named: one that cannot be (ENOENT, EACCES, EISDIR, ...) is their
 * error, worded as Node words it. Only Node's system errors are turned; anything else stays a bug.
 */
export function userFile<T>(use: () => T): T {
  try {
    return use();
  } catch (err) {
    const systemError = err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string';
    throw systemError ? new CliError(err.message) : err;
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
