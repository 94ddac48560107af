import type { Client } from '@temporalio/client';
import { InvalidArgumentError, type Command } from 'commander';
import type { TaskStatus } from '../../contract';
import { LEDGER_GLANCE_MS, ledgerStatusGlance } from '../../ledger/client';
import { TASK_STATUSES } from '../../team/types';
import { printJson, withClient } from '../../operator/context';
import { intOption } from '../../operator/options';
import { renderOverview, tasksTable } from '../render';
import { renderTaskTree, renderTree } from '../tree-render';
import { readTree, resolveRunId, TREE_DEFAULTS, TREE_LIMITS } from '../../operator/tree';
import { RunReader, type RunOverview } from '../../operator/run-view';
import { runUrl } from '../web-ui';
import { oneLine } from '../../format';

interface TasksOptions {
  status?: TaskStatus[];
  offset: number;
  limit: number;
  json?: boolean;
  tree?: boolean;
  depth: number;
}

const depthHelp = `levels of child runs (team tasks) to read below the run (at most ${TREE_LIMITS.depth})`;

/** The words `status` and the progress line use for groups of task states. */
export const STATUS_ALIASES: Readonly<Record<string, readonly TaskStatus[]>> = {
  running: ['leased'],
  pending: ['ready', 'blocked'],
};

/** A task state of the contract, or a summary word standing for some (`pending` = ready or blocked). */
export function taskStatusOption(value: string): TaskStatus[] {
  if (TASK_STATUSES.includes(value as TaskStatus)) return [value as TaskStatus];
  if (Object.hasOwn(STATUS_ALIASES, value)) return [...STATUS_ALIASES[value]];
  throw new InvalidArgumentError(
    `"${value}" is not a task status (${TASK_STATUSES.join(', ')}; or ${Object.entries(STATUS_ALIASES)
      .map(([word, states]) => `${word} = ${states.join(' or ')}`)
      .join(', ')}).`,
  );
}

/** `status` and `tasks`: read-only views of one run, open or closed. */
export function registerInspect(program: Command): void {
  program
    .command('status <workflowId>')
    .description(
      'state, task counts, budget (used / reserved / limit) and pending adjudications of a run, and its tree of ' +
        'child runs (team tasks) with counts per level; a run may be named by its path (root/key/key)',
    )
    .option('--json', 'print JSON')
    .option('--depth <n>', depthHelp, intOption, TREE_DEFAULTS.depth)
    .option('--children <n>', `child runs listed per run (at most ${TREE_LIMITS.maxChildren})`, intOption, 20)
    .action(async (target: string, options: { json?: boolean; depth: number; children: number }, command: Command) => {
      await withClient(command, async (client, config) => {
        const workflowId = await resolveRunId(client, target);
        const overview = await new RunReader(client, workflowId).overview();
        const tree = await readTree(client, workflowId, { depth: options.depth, maxChildren: options.children });
        if (options.json) printJson(tree.teamTasks ? { ...overview, tree } : overview);
        else {
          const waiting = await ledgerWait(client, overview);
          process.stdout.write(
            `${renderOverview(overview, runUrl(config, workflowId))}\n${waiting ?? ''}${renderTree(tree)}`,
          );
        }
      });
    });

  program
    .command('tasks <workflowId>')
    .description('the tasks of a run: status, attempts, fencing token, holder, last error or output')
    .option(
      '--status <status>',
      `only tasks in this status (${TASK_STATUSES.join(', ')}; running = leased, pending = ready or blocked)`,
      taskStatusOption,
    )
    .option('--offset <n>', 'skip this many (after the status filter)', intOption, 0)
    .option('--limit <n>', 'show at most this many', intOption, 100)
    .option('--json', 'print JSON')
    .option('--tree', "nest each team task's child run's tasks under it")
    .option('--depth <n>', `with --tree: ${depthHelp}`, intOption, TREE_DEFAULTS.depth)
    .action(async (target: string, options: TasksOptions, command: Command) => {
      await withClient(command, async (client) => {
        const workflowId = await resolveRunId(client, target);
        if (options.tree) {
          const depth = Math.min(options.depth, TREE_LIMITS.depth);
          process.stdout.write(await renderTaskTree(client, workflowId, { depth, limit: options.limit }));
          return;
        }
        const reader = new RunReader(client, workflowId);
        const statuses = options.status ?? [undefined];
        let tasks;
        if (statuses.length === 1) {
          tasks = await reader.tasks({ status: statuses[0], offset: options.offset, limit: options.limit });
        } else {
          // An alias for several states: each state's first offset+limit tasks, in the alias's order.
          const pages = [];
          for (const status of statuses)
            pages.push(...(await reader.tasks({ status, offset: 0, limit: options.offset + options.limit })));
          tasks = pages.slice(options.offset, options.offset + options.limit);
        }
        if (options.json) printJson(tasks);
        else process.stdout.write(tasks.length ? `${tasksTable(tasks, 100)}\n` : 'no tasks match\n');
      });
    });
}

/**
 * An open run on a ledger that requires recovery starts no attempt until an operator acts, and one whose ledger does
 * not answer may start none either: say so.
 */
async function ledgerWait(client: Client, overview: RunOverview): Promise<string | null> {
  const ledger = overview.budget?.limits.ledger;
  if (!overview.open || !ledger) return null;
  // The run's status stands without it: a ledger that cannot be read adds a line saying so, after a few seconds.
  const status = await ledgerStatusGlance(client, ledger).catch((err: unknown) =>
    err instanceof Error ? err : new Error(String(err)),
  );
  if (status instanceof Error) {
    return (
      `waiting  ledger ${ledger} did not answer a query within ${LEDGER_GLANCE_MS / 1_000} s ` +
      `(${oneLine(status.message, 160)}); the run's attempts wait for its answers: is a worker polling the ` +
      `ledger's task queue? (\`teamrun ledger status ${ledger}\`)\n`
    );
  }
  if (!status.recovery) return null;
  return (
    `waiting  ledger ${ledger} requires recovery: ${status.recovery.count} lost attempt(s) with unknown usage; ` +
    `no attempt starts until \`teamrun ledger resolve ${ledger} --usage '{...}'\` (or --release)\n`
  );
}
