import { WorkflowNotFoundError } from '@temporalio/client';
import type { Command } from 'commander';
import { teamRunHandle } from '../../client';
import { CliError, printJson, withClient } from '../../operator/context';
import { readTree } from '../../operator/tree';
import { renderResult } from '../render';
import { renderTree } from '../tree-render';
import { waitForRun } from '../wait';

export function registerWatch(program: Command): void {
  program
    .command('watch <workflowId>')
    .description(
      'live progress of a run until it ends (a bar on a terminal, plain lines otherwise) and a line per agent ' +
        'model turn and tool call, what a model call is writing while it streams, then its summary; exit 0 only ' +
        'if it succeeded',
    )
    .option('--json', 'print the run result as JSON at the end')
    .action(async (workflowId: string, options: { json?: boolean }, command: Command) => {
      await withClient(command, async (client) => {
        const handle = teamRunHandle(client, workflowId);
        await handle.describe().catch((err: unknown) => {
          throw err instanceof WorkflowNotFoundError
            ? new CliError(`no run with id "${workflowId}" in namespace ${client.options.namespace}`)
            : err;
        });
        const result = await waitForRun(handle, {}, { leaveOnCtrlC: true, steps: true, live: client });
        // The tree of child runs under it (team tasks), as `status` shows it; a summary stands without it.
        const tree = await readTree(client, workflowId).catch(() => null);
        const withTree = tree?.teamTasks ? { tree } : {};
        if (options.json) printJson({ workflowId, ...result, ...withTree });
        else process.stdout.write(`${renderResult(workflowId, result)}\n${tree ? renderTree(tree) : ''}`);
        if (result.status !== 'succeeded') process.exitCode = 1;
      });
    });
}
