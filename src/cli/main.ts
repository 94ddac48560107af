#!/usr/bin/env node
import { Command } from 'commander';
import { CliError } from './context';
import { registerCommands } from './commands';

export function buildProgram(): Command {
  const program = new Command('teamrun')
    .description('Run a team of workers through a graph of tasks, durably, on Temporal')
    .option('-c, --config <file>', 'config file (default: ./temporal.yaml, or $TEAMRUN_CONFIG)')
    .option('--address <host:port>', 'Temporal frontend address (default: config or $TEMPORAL_ADDRESS)')
    .option('--namespace <ns>', 'Temporal namespace (default: config or $TEMPORAL_NAMESPACE)')
    .option('--task-queue <queue>', 'task queue (default: config, "teamrun")')
    .showHelpAfterError();
  registerCommands(program);
  return program;
}

export async function main(argv = process.argv): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`teamrun: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    // teamrun's own errors (a bad config, no temporal binary, ...) carry a string code and a
    // message written for the user: print that, not a stack.
    if (err instanceof Error && typeof (err as { code?: unknown }).code === 'string') {
      process.stderr.write(`teamrun: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`teamrun: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  }
}

if (require.main === module) void main();
