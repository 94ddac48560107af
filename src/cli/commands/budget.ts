import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import type { TightenBudgetRequest } from '../../contract';
import { printJson } from '../../operator/context';
import { intOption } from '../../operator/options';
import { actorOption, defaultActor, update, withRun } from './control';
import { nonNegative, windowOption } from './ledger';

interface TightenOptions {
  maxTasks?: number;
  maxTokens?: number;
  maxUsd?: number;
  maxWall?: number;
  requestId?: string;
  actor?: string;
  json?: boolean;
}

/** `teamrun budget tighten <run>`: lower a running run's limits; they never loosen. */
export function registerBudget(program: Command): void {
  const budget = program.command('budget').description("a running run's budget: limits only tighten");
  budget
    .command('tighten <workflowId>')
    .description(
      'lower limits of a running run (a limit the plan did not set may be added); a limit at or below what is ' +
        'used stops the run at once with that limit as the reason; raising one is refused (loosening_refused)',
    )
    .option('--max-tasks <n>', 'attempts in all', intOption)
    .option('--max-tokens <n>', 'tokens (input + output + cache)', nonNegative)
    .option('--max-usd <n>', 'dollars', nonNegative)
    .option('--max-wall <duration>', 'wall time since the run started, e.g. 2h, 30m, 90s', windowOption)
    .option('--request-id <id>', 'id of this request (default: a fresh uuid)')
    .addOption(actorOption())
    .option('--json', 'print the verdict as JSON')
    .action(async (workflowId: string, options: TightenOptions, command: Command) => {
      const request: TightenBudgetRequest = {
        ...(options.maxTasks !== undefined && { maxTasks: options.maxTasks }),
        ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
        ...(options.maxUsd !== undefined && { maxUsd: options.maxUsd }),
        ...(options.maxWall !== undefined && { maxWallMs: options.maxWall }),
        requestId: options.requestId ?? randomUUID(),
        actor: options.actor ?? defaultActor(),
      };
      const verdict = await withRun(command, workflowId, (handle) => update(handle, 'tightenBudget', request));
      if (options.json) return printJson(verdict);
      const { budget: b } = verdict;
      const limits = Object.entries(b.limits)
        .filter(([name]) => name !== 'ledger')
        .map(([name, value]) => `${name} ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
      process.stdout.write(
        `budget tightened: ${limits.join(', ')}` + (b.stopped ? `; the run stopped (${b.reason})` : '') + '\n',
      );
    });
}
