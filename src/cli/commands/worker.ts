import type { Command } from 'commander';
import { CliError, configFrom } from '../../operator/context';

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      'run a worker against the configured Temporal (teamrun.yaml, a ' +
        'Temporal profile, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE) until Ctrl-C',
    )
    .option('--identity <name>', 'worker identity shown in the Web UI and in task holders (default: pid@host)')
    .action(async (options: { identity?: string }, command: Command) => {
      const config = configFrom(command);
      // `worker.llm.baseUrl: mock`: the scripted mock model, in this process.
      const { startMockFor } = require('../mock-model') as typeof import('../mock-model');
      const mock = await startMockFor(config, undefined, (line) => process.stderr.write(`teamrun worker: ${line}\n`));
      // The worker's native runtime loads only for the commands that run one.
      const { runWorker } = require('../../worker/main') as typeof import('../../worker/main');
      try {
        await runWorker({ config, identity: options.identity });
      } catch (err) {
        throw new CliError(
          `the worker for ${config.connection.address} (namespace ${config.connection.namespace}, task queue ` +
            `"${config.connection.taskQueue}") stopped: ${(err as Error).message}`,
        );
      } finally {
        // Its server would keep the process alive after the worker stopped (Ctrl-C left it running for good).
        await mock?.close();
      }
    });
}
