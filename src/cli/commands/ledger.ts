import { WorkflowNotFoundError } from '@temporalio/common';
import { InvalidArgumentError, type Command } from 'commander';
import { abortAllLedger, createLedger, ledgerStatus } from '../../ledger/client';
import type { LedgerLimits, LedgerStatus } from '../../contract';
import { LedgerIdSchema, ledgerWorkflowId } from '../../plan/requests/ledger';
import { CliError, printJson, withClient } from '../context';

interface CreateOptions {
  maxConcurrent?: number;
  maxTokens?: number;
  maxUsd?: number;
  window?: number;
  json?: boolean;
}

/** `teamrun ledger create|status|abort-all <id>`: a budget shared by many runs. */
export function registerLedger(program: Command): void {
  const ledger = program
    .command('ledger')
    .description(
      'shared budgets: one ledger caps attempts in flight, tokens ' +
        'and dollars across every run that names it (budget.ledger)',
    );

  ledger
    .command('create <id>')
    .description('create a ledger with these limits, or set these limits on a running one')
    .option('--max-concurrent <n>', 'attempts in flight across all runs', positiveInt)
    .option('--max-tokens <n>', 'tokens (input + output + cache) per window', nonNegative)
    .option('--max-usd <n>', 'dollars per window', nonNegative)
    .option('--window <duration>', 'usage resets every window, e.g. 1d, 12h, 30m (default: never)', windowOption)
    .option('--json', 'print JSON')
    .action(async (id: string, options: CreateOptions, command: Command) => {
      ledgerId(id);
      const limits: LedgerLimits = {
        ...(options.maxConcurrent !== undefined && { maxConcurrent: options.maxConcurrent }),
        ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
        ...(options.maxUsd !== undefined && { maxUsd: options.maxUsd }),
        ...(options.window !== undefined && { windowMs: options.window }),
      };
      await withClient(command, async (client, config) => {
        const status = await createLedger(client, id, limits, { taskQueue: config.connection.taskQueue });
        if (options.json) printJson(status);
        else process.stdout.write(`${renderLedger(status)}\n`);
      });
    });

  ledger
    .command('status <id>')
    .description('limits, attempts in flight, used and reserved budget, registered runs, last abort')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      ledgerId(id);
      await withClient(command, async (client) => {
        const status = await ledgerStatus(client, id).catch((err: unknown) => notFound(err, id));
        if (options.json) printJson(status);
        else process.stdout.write(`${renderLedger(status)}\n`);
      });
    });

  ledger
    .command('abort-all <id>')
    .description('abort every run registered with the ledger now (their active attempts go to adjudication)')
    .option('--reason <text>', 'why, recorded in each run (default: session-budget-exhausted)')
    .option('--actor <name>', 'who, recorded in the ledger')
    .action(async (id: string, options: { reason?: string; actor?: string }, command: Command) => {
      ledgerId(id);
      await withClient(command, async (client) => {
        const verdict = await abortAllLedger(client, id, options).catch((err: unknown) => notFound(err, id));
        const runs = verdict.runs.length ? `: ${verdict.runs.join(', ')}` : '';
        process.stdout.write(`ledger ${id}: abortRun sent to ${verdict.runs.length} run(s)${runs}\n`);
      });
    });
}

function ledgerId(id: string): void {
  const parsed = LedgerIdSchema.safeParse(id);
  if (!parsed.success) throw new CliError(`"${id}": ${parsed.error.issues[0].message}`);
}

function notFound(err: unknown, id: string): never {
  if (err instanceof WorkflowNotFoundError) {
    throw new CliError(
      `no ledger "${id}" (workflow ${ledgerWorkflowId(id)}); create it with \`teamrun ledger create ${id}\``,
    );
  }
  throw err;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer.`);
  return n;
}

function nonNegative(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`"${value}" is not a non-negative number.`);
  return n;
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1d`, `12h`, `30m`, `90s`, or milliseconds; at least a second. */
export function windowOption(value: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * (match[2] && match[2] !== 'ms' ? UNIT_MS[match[2]] : 1) : NaN;
  if (!Number.isSafeInteger(ms) || ms < 1_000) {
    throw new InvalidArgumentError(`"${value}" is not a window of at least 1s (e.g. 1d, 12h, 30m, 90s).`);
  }
  return ms;
}

export function renderLedger(status: LedgerStatus): string {
  const { limits, used, reserved, exhausted, counters, lastAbort, window } = status;
  const of = (value: string, max: number | undefined, unit = (n: number) => n.toLocaleString('en-US')) =>
    max === undefined ? value : `${value} of ${unit(max)}`;
  const dollars = (n: number) => `$${n.toFixed(n !== 0 && n < 0.01 ? 6 : 2)}`;
  const resets = window
    ? `${window.ms} ms, resets ${new Date(window.resetsAt).toISOString()}`
    : 'none (usage never resets)';
  const lines = [
    `ledger ${status.id} ` +
      `(workflow ${ledgerWorkflowId(status.id)})${exhausted ? `: EXHAUSTED (${exhausted.reason})` : ''}`,
    `  in flight  ${of(String(status.inFlight), limits.maxConcurrent)}`,
    `  tokens     ${of(used.tokens.toLocaleString('en-US'), limits.maxTokens)} ` +
      `used, ${reserved.tokens.toLocaleString('en-US')} reserved`,
    `  usd        ${of(dollars(used.usd), limits.maxUsd, dollars)} used, ${dollars(reserved.usd)} reserved`,
    `  window     ${resets}`,
    `  runs       ${status.runs.length} ` +
      `registered${status.runs.length ? `: ${status.runs.map((r) => r.workflowId).join(', ')}` : ''}`,
    `  attempts   ${counters.acquired} acquired, ${counters.settled} settled ` +
      `(${counters.duplicateSettles} duplicate settles charged nothing), ${counters.expired} slots expired`,
  ];
  if (lastAbort) {
    lines.push(
      `  last abort ${new Date(lastAbort.at).toISOString()} ${lastAbort.reason} ` +
        `by ${lastAbort.actor}: ${lastAbort.runs.length} run(s)`,
    );
  }
  return lines.join('\n');
}
