import path from 'node:path';
import type { Command } from 'commander';
import { Client, Connection } from '@temporalio/client';
import { startTeamRun } from '../../client';
import { dataConverterFor } from '../../codec';
import { projectRoot } from '../../devserver/binary';
import { configFrom } from '../../operator/context';
import { startFailure } from '../../operator/start-errors';
import { duration } from '../../format';
import type { Stack } from '../local-stack';
import { intOption } from '../../operator/options';
import { readPlan } from '../../operator/plan-file';
import { renderResult } from '../render';
import { waitForRun } from '../wait';
import { workflowUrl } from '../web-ui';

interface DemoOptions {
  keep?: boolean;
  plan?: string;
  uiPort?: number;
}

const log = (line: string) => process.stderr.write(`teamrun demo: ${line}\n`);

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'the quick start: start a local Temporal (unless one answers) ' +
        'and a worker, run examples/demo.yaml, print the summary, stop',
    )
    .option('--keep', 'keep the server and the worker running afterwards, to browse the Web UI (Ctrl-C stops them)')
    .option('--plan <file>', 'the plan to run (default: examples/demo.yaml)')
    .option('--ui-port <port>', 'Web UI port (as for `teamrun dev`); the frontend is at connection.address', intOption)
    .action(async (options: DemoOptions, command: Command) => {
      const began = Date.now();
      const { input, plan } = readPlan(options.plan ?? path.join(projectRoot(), 'examples', 'demo.yaml'));
      const config = configFrom(command);
      // The worker's native runtime loads only for the commands that run one.
      const { installRuntime, onInterrupt, startStack } = require('../local-stack') as typeof import('../local-stack');
      // The demo fails a task on purpose; the worker's warning about it would only be noise here.
      installRuntime('ERROR');
      const stack = await startStack(config, { reuseRunning: true, uiPort: options.uiPort, log });
      const interrupt = interruptible(stack, onInterrupt);
      const client = new Client({
        connection: await Connection.connect(stack.connect),
        namespace: config.connection.namespace,
        dataConverter: dataConverterFor(config),
      });
      try {
        const handle = await startTeamRun(client, input, { taskQueue: config.connection.taskQueue }).catch(
          async (err: unknown) => {
            throw await startFailure(err, client, input);
          },
        );
        const link = stack.webUi && workflowUrl(stack.webUi, config.connection.namespace, handle.workflowId);
        process.stdout.write(
          `\nstarted team run ${handle.workflowId}: ${plan.tasks.length} tasks, ${plan.teammates} teammates\n` +
            (link ? `web ui: ${link}\n` : ''),
        );
        const result = await waitForRun(handle);
        process.stdout.write(`\n${renderResult(handle.workflowId, result)}\n\n`);
        if (stack.webUi) process.stdout.write(uiGuide(stack.webUi, config.connection.namespace, plan.name, link!));
        process.stdout.write(`demo finished in ${duration(Date.now() - began)}: ${result.status}\n`);
        if (result.status !== 'succeeded') process.exitCode = 1;
        if (options.keep) {
          process.stdout.write(
            `\nthe server and the worker keep ` +
              `running${stack.webUi ? ` (${stack.webUi})` : ''}; press Ctrl-C to stop them\n`,
          );
          await interrupt.untilCtrlC();
        }
      } finally {
        interrupt.unhook();
        await client.connection.close();
        await stack.stop(log);
      }
    });
}

/**
 * Ctrl-C while the demo runs stops the worker and the server it started, then exits (a second
 * one kills at once); after `untilCtrlC()` it ends the wait instead.
 */
function interruptible(
  stack: Stack,
  onInterrupt: (graceful: () => void, force: () => void) => () => void,
): { untilCtrlC: () => Promise<void>; unhook: () => void } {
  let endWait: (() => void) | null = null;
  const unhook = onInterrupt(
    () => {
      if (endWait) return endWait();
      log('interrupted');
      void stack.stop(log).finally(() => process.exit(130));
    },
    () => {
      stack.server?.process.kill('SIGKILL');
      process.exit(130);
    },
  );
  return { untilCtrlC: () => new Promise<void>((resolve) => (endWait = resolve)), unhook };
}

function uiGuide(webUi: string, namespace: string, teamName: string, link: string): string {
  const list =
    `${webUi}/namespaces/${encodeURIComponent(namespace)}` +
    `/workflows?query=${encodeURIComponent(`TeamName="${teamName}"`)}`;
  return [
    'In the Temporal Web UI:',
    `  this run:          ${link}`,
    '                     Event History: one runTask activity per attempt, id <task key>#<fencing token>',
    '                     (the retried task has two); Current Details: the progress summary;',
    '                     Queries tab: status, tasks, budget, events',
    `  all demo runs:     ${list}`,
    '                     the search attributes TeamName and TeamRunStatus filter and label team runs',
    '',
  ].join('\n');
}
