import type { Command } from 'commander';
import { printJson } from '../../operator/context';
import { actorOption, defaultActor, update, withRun } from './control';
import { intOption } from '../../operator/options';

/** `steer`: guidance for a running agent, joined before its next model call. */
export function registerAgent(program: Command): void {
  program
    .command('steer <workflowId> <key> <text>')
    .description('guide a running agent: the text (at most 8 KiB) joins its conversation before its next model call')
    .option('--fencing-token <n>', 'steer only the attempt with this token (default: whichever runs now)', intOption)
    .option('--request-id <id>', 'id of this request, for the record')
    .addOption(actorOption())
    .option('--json', 'print the verdict as JSON')
    .action(
      async (
        workflowId: string,
        key: string,
        text: string,
        options: { fencingToken?: number; requestId?: string; actor?: string; json?: boolean },
        command: Command,
      ) => {
        const verdict = await withRun(command, workflowId, (handle) =>
          update(handle, 'steer', {
            key,
            text,
            fencingToken: options.fencingToken,
            requestId: options.requestId,
            actor: options.actor ?? defaultActor(),
          }),
        );
        if (options.json) printJson(verdict);
        else process.stdout.write(`steered "${key}": the text joins model call ${verdict.turn}\n`);
      },
    );
}
