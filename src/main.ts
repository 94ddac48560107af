#!/usr/bin/env node
import { Command } from 'commander';
import { version } from './operator/version';

export { version };

/**
 * Commands registered alone when they are the one asked for: the others load the Temporal client (~0.25 s), the MCP
 * door and the CLI's renderers just by being registered. `validate` and `schema` need neither a server nor a worker;
 * `worker` runs for days, and what the other commands load would stay in its heap all that time, marked again by
 * each full garbage collection (docs/benchmarks.md, issue 42).
 */
const LIGHT_COMMANDS: Record<string, () => (program: Command) => void> = {
  validate: () => (require('./cli/commands/validate') as typeof import('./cli/commands/validate')).registerValidate,
  schema: () => (require('./cli/commands/schema') as typeof import('./cli/commands/schema')).registerSchema,
  worker: () => (require('./cli/commands/worker') as typeof import('./cli/commands/worker')).registerWorker,
};

export function buildProgram(only?: string): Command {
  const program = new Command('teamrun')
    .description('Run a team of workers through a graph of tasks, durably, on Temporal')
    .version(version(), '-V, --version', 'print the version of teamrun')
    .option('-c, --config <file>', 'config file (default: ./teamrun.yaml, else ./temporal.yaml; or $TEAMRUN_CONFIG)')
    .option(
      '--address <host:port>',
      'Temporal frontend address (default: $TEMPORAL_ADDRESS, the Temporal profile, the config file)',
    )
    .option(
      '--namespace <ns>',
      'Temporal namespace (default: $TEMPORAL_NAMESPACE, the Temporal profile, the config file)',
    )
    .option(
      '--profile <name>',
      'Temporal connection profile of temporal.toml, as for the temporal CLI (default: $TEMPORAL_PROFILE)',
    )
    .option('--task-queue <queue>', 'task queue (default: config, "teamrun")')
    .showHelpAfterError();
  // Loaded here, not at the top: `--version` answers without them.
  if (only && Object.hasOwn(LIGHT_COMMANDS, only)) LIGHT_COMMANDS[only]()(program);
  else {
    (require('./cli/commands') as typeof import('./cli/commands')).registerCommands(program);
    // The MCP door is a command of its own, beside the CLI's: neither imports the other (scripts/check-imports.js).
    (require('./mcp/command') as typeof import('./mcp/command')).registerMcp(program);
  }
  return program;
}

/**
 * A reader that stops early (`teamrun start ... | head -1`) closes the pipe: the next write fails with EPIPE,
 * which Node throws as an uncaught error with its stack. Nobody reads what is left, so the CLI ends quietly, 0,
 * as a shell pipeline expects of its left side (a started run goes on on the server).
 */
function exitQuietlyOnClosedOutput(): void {
  // stderr too: progress lines go there, and `2>&1 | head -1` closes it as well.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
}

export async function main(argv = process.argv): Promise<void> {
  exitQuietlyOnClosedOutput();
  // Answered before the commands (and the Temporal client they load) are read: a few ms, not ~0.3 s.
  if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  try {
    await buildProgram(argv[2]).parseAsync(argv);
  } catch (err) {
    const { classifyFailure } = require('./cli/failure') as typeof import('./cli/failure');
    const failure = classifyFailure(err);
    process.stderr.write(failure.output);
    // With tracing on, the failed command's spans (its error recorded) are exported before it exits.
    await (require('./telemetry/flush') as typeof import('./telemetry/flush')).flushTelemetry();
    process.exit(failure.exitCode);
  }
}

if (require.main === module) void main();
