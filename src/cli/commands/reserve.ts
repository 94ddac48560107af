import type { Command } from 'commander';
import { askGateway, attemptFromEnv, GatewayRefusal, gatewayFromEnv } from '../attempt-env';
import { CliError, printJson } from '../../operator/context';

/** `teamrun reserve` exits with this when the run refused: the attempt is being stopped. */
export const RESERVE_REFUSED_EXIT = 3;

interface ReserveOptions {
  tokens?: string;
  usd?: string;
  json?: boolean;
}

function amount(text: string | undefined, flag: string, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value) || (integer && !Number.isInteger(value)))
    throw new CliError(`${flag}: "${text}" is not a ${integer ? 'whole ' : ''}number of at least 0`);
  return value;
}

/** `reserve`: inside a task, ask the run for budget before spending it (the attempt's live reservation). */
export function registerReserve(program: Command): void {
  program
    .command('reserve')
    .description(
      'inside a task: reserve budget before spending it. Blocks until the run grants it (exit 0) or refuses ' +
        `(exit ${RESERVE_REFUSED_EXIT}: the attempt is then stopped with TEAM_TASK_BUDGET_EXCEEDED). What was ` +
        'granted and not used is released when the attempt settles',
    )
    .option('--tokens <n>', 'tokens to reserve')
    .option('--usd <x>', 'dollars to reserve')
    .option('--json', 'print the answer as JSON')
    .action(async (options: ReserveOptions) => {
      const tokens = amount(options.tokens, '--tokens', true);
      const usd = amount(options.usd, '--usd', false);
      if (tokens === undefined && usd === undefined) throw new CliError('give --tokens N, --usd X, or both');
      const gateway = attemptFromEnv() ? gatewayFromEnv() : null;
      if (!gateway) {
        throw new CliError(
          "teamrun reserve runs inside a task: it asks the attempt's worker ($TEAMRUN_ATTEMPT_SOCKET), and there is " +
            'none here (a budget of a run is steered from outside with its limits, not reserved)',
        );
      }
      try {
        const answer = await askGateway<{ granted: { tokens?: number; usd?: number } }>(gateway, 'reserve', {
          ...(tokens !== undefined ? { tokens } : {}),
          ...(usd !== undefined ? { usd } : {}),
        });
        if (options.json) printJson(answer);
      } catch (err) {
        if (err instanceof GatewayRefusal && err.refusal === 'TEAM_TASK_BUDGET_EXCEEDED')
          throw new CliError(err.message, RESERVE_REFUSED_EXIT);
        throw err;
      }
    });
}
