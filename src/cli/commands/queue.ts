import type { Command } from 'commander';
import { adjudicationQueue } from '../../client/queue';
import { printJson, withClient } from '../../operator/context';
import { duration, oneLine, table } from '../../format';

export function registerQueue(program: Command): void {
  program
    .command('queue')
    .description(
      'every open run awaiting adjudication, across runs: each pending task with its code, reason, actor and age',
    )
    .option('--team <name>', 'only runs of this team (TeamName)')
    .option('--json', 'print JSON')
    .action(async (options: { team?: string; json?: boolean }, command: Command) => {
      await withClient(command, async (client) => {
        const runs = await adjudicationQueue(client, { team: options.team });
        if (options.json) return printJson(runs);
        if (!runs.length) return void process.stdout.write('no runs awaiting adjudication\n');
        const rows = runs.flatMap((run) =>
          run.error
            ? [[run.workflowId, run.team ?? '-', '?', '?', '-', '-', '-', oneLine(run.error, 80)]]
            : run.pending.map((p) => [
                run.workflowId,
                run.team ?? '-',
                p.key,
                p.code,
                String(p.fencingToken),
                duration(p.ageMs),
                p.actor ?? '-',
                oneLine(p.reason ?? '', 60),
              ]),
        );
        const tasks = runs.reduce((n, run) => n + run.pending.length, 0);
        process.stdout.write(`${table(['RUN', 'TEAM', 'TASK', 'CODE', 'TOKEN', 'AGE', 'ACTOR', 'REASON'], rows)}\n`);
        process.stdout.write(`${runs.length} run(s) awaiting adjudication, ${tasks} pending task(s)\n`);
      });
    });
}
