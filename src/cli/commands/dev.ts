import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { LogLevel } from '@temporalio/worker';
import { projectRoot } from '../../devserver/binary';
import { CliError, configFrom } from '../../operator/context';
import { intOption, logLevelOption } from '../../operator/options';
import { AGENTS_PLAN } from './init';

interface DevOptions {
  port?: number;
  uiPort?: number;
  headless?: boolean;
  tracing?: boolean;
  logLevel: LogLevel;
  model?: string;
}

const log = (line: string) => process.stderr.write(`teamrun dev: ${line}\n`);

export function registerDev(program: Command): void {
  program
    .command('dev')
    .description(
      'run a local Temporal dev server (SQLite, search attributes ' +
        'registered, Web UI) and a worker in this process, until Ctrl-C',
    )
    .option(
      '--port <port>',
      'frontend port (default: the port of a local connection.address, else devServer.port)',
      intOption,
    )
    .option('--ui-port <port>', 'Web UI port (default: devServer.uiPort, or the frontend port + 1000)', intOption)
    .option('--headless', 'no Web UI')
    .option(
      '--tracing',
      'also run Arize Phoenix (installed into .teamrun/phoenix-venv on first use) and send the traces there ' +
        '(127.0.0.1:6006)',
    )
    .option('--log-level <level>', 'log level of the worker: TRACE, DEBUG, INFO, WARN, ERROR', logLevelOption, 'WARN')
    .option(
      '--model <mock>',
      'mock: agents talk to the scripted mock model teamrun ships (no key; as worker.llm.baseUrl: mock)',
    )
    .action(async (options: DevOptions, command: Command) => {
      const config = configFrom(command);
      const { mockBannerLine, startMockFor, watchConfigFile } =
        require('../mock-model') as typeof import('../mock-model');
      const mock = await startMockFor(config, options.model, log);
      // The worker's native runtime loads only for the commands that run one.
      const { installRuntime, onInterrupt, startStack } = require('../local-stack') as typeof import('../local-stack');
      installRuntime(options.logLevel);
      const phoenix = options.tracing
        ? await (require('../../devserver/phoenix') as typeof import('../../devserver/phoenix')).startPhoenix({ log })
        : null;
      // The worker below (and any CLI started from this shell with the same variable) traces to it.
      if (phoenix) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = phoenix.otlpEndpoint;
      const stack = await startStack(config, { ...options, reuseRunning: false, log }).catch(async (err: unknown) => {
        await phoenix?.stop();
        await mock?.close();
        throw err;
      });
      // Ctrl-C is taken from here on, before the banner says so: a SIGINT sent as soon as it is read (a test, a
      // script) killed dev by the signal's default once in CI, before the handler was set, and left the server.
      const interrupted = new Promise<void>((resolve) => {
        onInterrupt(resolve, () => {
          log('stopping now');
          stack.server?.process.kill('SIGKILL');
          phoenix?.process.kill('SIGKILL');
          process.exit(130);
        });
      });
      const plan = mock ? agentPlanPath(process.cwd()) : demoPlanPath(process.cwd());
      const { namespace, taskQueue } = config.connection;
      process.stdout.write(
        [
          `Temporal dev server: ${stack.address} (namespace ${namespace}, SQLite ${stack.server?.dbFile})`,
          `Worker:              task queue "${taskQueue}", executors ${config.worker.executors.join(', ')}`,
          ...(mock ? [mockBannerLine(mock)] : []),
          ...(stack.webUi ? [`Web UI:              ${stack.webUi}/namespaces/${namespace}/workflows`] : []),
          ...(stack.codecServer
            ? [`Codec server:        ${stack.codecServer.url} (the Web UI decodes payloads through it)`]
            : []),
          ...(phoenix
            ? [
                `Phoenix (traces):    ${phoenix.url} (OTLP/HTTP ${phoenix.otlpEndpoint}/v1/traces)`,
                `Start a traced run:  OTEL_EXPORTER_OTLP_ENDPOINT=${phoenix.otlpEndpoint} ` +
                  `teamrun start ${plan} --wait`,
              ]
            : [`Start a run:         teamrun start ${plan} --wait`]),
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
      const unwatch = watchConfigFile(config.file, log);
      const failed = await Promise.race([
        interrupted.then(() => null),
        stack.worker.running.then(
          () => null,
          (err: Error) => err,
        ),
      ]);
      unwatch();
      await stack.stop(log);
      await phoenix?.stop();
      await mock?.close();
      log('stopped');
      if (failed) throw new CliError(`the worker stopped: ${failed.message}`);
    });
}

/**
 * The demo plan the package ships, as a path from `cwd`: `examples/demo.yaml` in a clone,
 * `node_modules/teamrun/examples/demo.yaml` in a project that installed the package, absolute elsewhere.
 */
export function demoPlanPath(cwd: string, file = 'demo.yaml'): string {
  const shipped = path.join(projectRoot(), 'examples', file);
  const relative = path.relative(cwd, shipped);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : shipped;
}

/** With the mock: the project's agent plan (`teamrun init agents`) when there is one, else the shipped agent team. */
function agentPlanPath(cwd: string): string {
  return existsSync(path.join(cwd, AGENTS_PLAN)) ? AGENTS_PLAN : demoPlanPath(cwd, 'agent-team.yaml');
}
