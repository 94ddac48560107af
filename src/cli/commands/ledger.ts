import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { abortAllLedger, createLedger, ledgerStatus, resolveLedger } from '../../ledger/client';
import type { LedgerLimits, LedgerStatus } from '../../contract';
import {
  LedgerIdSchema,
  LedgerOperatorsSchema,
  MAX_LEDGER_OPERATORS,
  ResolveRequestSchema,
  ledgerWorkflowId,
} from '../../plan/requests/ledger';
import { CliError, printJson, withClient } from '../../operator/context';
import { intOption } from '../../operator/options';
import { actorOption, defaultActor } from './control';

interface CreateOptions {
  maxConcurrent?: number;
  maxTokens?: number;
  maxUsd?: number;
  window?: number;
  maxSpawnedTasks?: number;
  maxTurns?: number;
  maxDepth?: number;
  maxWall?: number;
  force?: boolean;
  actor?: string;
  operators?: string[];
  wait: number;
  json?: boolean;
}

/** How long `ledger create` waits for its answer before it says what it waits for. */
const NO_ANSWER_NOTICE_MS = 5_000;
/** How long `ledger create` waits for the ledger's answer at most, unless `--wait` says otherwise. */
const DEFAULT_WAIT = '2m';

/** The longest `--usage` JSON `ledger resolve` reads. */
const MAX_USAGE_CHARS = 4_096;
/** The longest `--operators` list read: every name at its longest, with its comma. */
const MAX_OPERATORS_CHARS = MAX_LEDGER_OPERATORS * 201;

/** Who is asking, for the ledger's records and checked against its operators when it has any. */
const ledgerActorOption = () => actorOption("the ledger's operators when it has any");

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
    .description(
      'create a ledger with these limits, or set these limits on a running one (they only tighten unless --force)',
    )
    .option('--max-concurrent <n>', 'attempts in flight across all runs', positiveInt)
    .option('--max-tokens <n>', 'tokens (input + output + cache) per window', nonNegative)
    .option('--max-usd <n>', 'dollars per window', nonNegative)
    .option('--window <duration>', 'usage resets every window, e.g. 1d, 12h, 30m (default: never)', windowOption)
    .option('--max-spawned-tasks <n>', 'tasks added while runs work, across all runs (per window)', intOption)
    .option('--max-turns <n>', 'agent model calls across all runs (per window)', intOption)
    .option('--max-depth <n>', "how deep any run may add tasks (its plan's budget.maxDepth at most this)", intOption)
    .option('--max-wall <duration>', 'how long any run may work from its start, e.g. 2h, 30m', windowOption)
    .option('--force', "loosen a running ledger's limits (recorded with --actor, one of its operators if it has any)")
    .option(
      '--operators <names>',
      'comma-separated actors who alone may --force a loosening, resolve and abort-all (default: any actor); ' +
        'on a running ledger with operators, only one of them may change the list',
      operatorsOption,
    )
    .addOption(ledgerActorOption())
    .addOption(
      new Option('--wait <duration>', "how long to wait for the ledger's answer (it needs a worker on the task queue)")
        .argParser(waitOption)
        .default(waitOption(DEFAULT_WAIT), DEFAULT_WAIT),
    )
    .option('--json', 'print JSON')
    .action(async (id: string, options: CreateOptions, command: Command) => {
      ledgerId(id);
      const limits: LedgerLimits = {
        ...(options.maxConcurrent !== undefined && { maxConcurrent: options.maxConcurrent }),
        ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
        ...(options.maxUsd !== undefined && { maxUsd: options.maxUsd }),
        ...(options.window !== undefined && { windowMs: options.window }),
        ...(options.maxSpawnedTasks !== undefined && { maxSpawnedTasks: options.maxSpawnedTasks }),
        ...(options.maxTurns !== undefined && { maxTurns: options.maxTurns }),
        ...(options.maxDepth !== undefined && { maxDepth: options.maxDepth }),
        ...(options.maxWall !== undefined && { maxWallMs: options.maxWall }),
      };
      await withClient(command, async (client, config) => {
        const queue = config.connection.taskQueue;
        // The ledger's workflow runs on the configured queue: without a worker there the answer never comes. Say so.
        const silent = setTimeout(() => {
          process.stderr.write(
            `teamrun ledger create: no answer yet: ledger ${id}'s workflow runs on task queue "${queue}", and ` +
              'waits for a worker there (`teamrun worker` or `teamrun dev` with that queue); still waiting\n',
          );
        }, NO_ANSWER_NOTICE_MS);
        // Past --wait the call is given up: the ledger's workflow stays started, and answers once a worker polls.
        const giveUp = new AbortController();
        const waited = setTimeout(() => giveUp.abort(), options.wait);
        const status = await client
          .withAbortSignal(giveUp.signal, () =>
            createLedger(client, id, limits, {
              taskQueue: queue,
              ...(options.force ? { force: true } : {}),
              ...(options.operators && { operators: options.operators }),
              actor: options.actor ?? defaultActor(),
            }),
          )
          .catch((err: unknown) => {
            if (giveUp.signal.aborted) throw noAnswer(id, queue, options.wait);
            return refused(err, id);
          })
          .finally(() => {
            clearTimeout(silent);
            clearTimeout(waited);
          });
        if (options.json) printJson(status);
        else process.stdout.write(`${renderLedger(status)}\n`);
      });
    });

  ledger
    .command('status <id>')
    .description('limits, attempts in flight, used and reserved budget, held scopes, registered runs, last abort')
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
    .command('resolve <id>')
    .description(
      "settle the ledger's lost attempts (usage unknown), so runs start attempts on it again: record what they " +
        'used, or release them (their reservations are charged)',
    )
    .option('--usage <json>', 'what the lost attempts used together: {"inputTokens":..,"outputTokens":..,"costUsd":..}')
    .option('--release', 'charge what the lost attempts reserved instead')
    .addOption(ledgerActorOption())
    .option('--json', 'print JSON')
    .action(async (id: string, options: ResolveOptions, command: Command) => {
      ledgerId(id);
      const request = resolveRequest(options);
      await withClient(command, async (client) => {
        const verdict = await resolveLedger(client, id, request).catch((err: unknown) => refused(err, id));
        if (options.json) return printJson(verdict);
        const { resolution: r } = verdict;
        process.stdout.write(
          `ledger ${id}: ${r.count} lost attempt(s) resolved by ${r.actor} ` +
            `(${r.how === 'usage' ? 'usage recorded' : 'reservations released'}): charged ${r.charged.tokens} ` +
            `tokens, $${r.charged.usd}; runs start attempts again\n`,
        );
      });
    });

  ledger
    .command('abort-all <id>')
    .description('abort every run registered with the ledger now (their active attempts go to adjudication)')
    .option('--reason <text>', 'why, recorded in each run (default: session-budget-exhausted)')
    .addOption(ledgerActorOption())
    .action(async (id: string, options: { reason?: string; actor?: string }, command: Command) => {
      ledgerId(id);
      const request = {
        ...(options.reason !== undefined && { reason: options.reason }),
        actor: options.actor ?? defaultActor(),
      };
      await withClient(command, async (client) => {
        const verdict = await abortAllLedger(client, id, request).catch((err: unknown) => refused(err, id));
        const runs = verdict.runs.length ? `: ${verdict.runs.join(', ')}` : '';
        process.stdout.write(`ledger ${id}: abortRun sent to ${verdict.runs.length} run(s)${runs}\n`);
      });
    });
}

/** `alice,bob`: the ledger's operators, each named once (spaces around a name are dropped). */
function operatorsOption(value: string): string[] {
  if (value.length > MAX_OPERATORS_CHARS) throw new InvalidArgumentError(`longer than ${MAX_OPERATORS_CHARS} chars.`);
  const names = value.split(',').map((name) => name.trim());
  const parsed = LedgerOperatorsSchema.safeParse(names);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const which = typeof issue.path[0] === 'number' ? `name ${issue.path[0] + 1} ("${names[issue.path[0]]}"): ` : '';
    // Commander shows the argument already: name only the entry and what is wrong with it.
    throw new InvalidArgumentError(`${which}${issue.message} (give e.g. alice,bob).`);
  }
  return parsed.data;
}

function ledgerId(id: string): void {
  const parsed = LedgerIdSchema.safeParse(id);
  if (!parsed.success) throw new CliError(`"${id}": ${parsed.error.issues[0].message}`);
}

interface ResolveOptions {
  usage?: string;
  release?: boolean;
  actor?: string;
  json?: boolean;
}

function resolveRequest(options: ResolveOptions) {
  if ((options.usage === undefined) === (options.release === undefined)) {
    throw new CliError('give either --usage \'{"inputTokens":..,"costUsd":..}\' or --release');
  }
  let usage: unknown;
  if (options.usage !== undefined) {
    if (options.usage.length > MAX_USAGE_CHARS) throw new CliError(`--usage: longer than ${MAX_USAGE_CHARS} chars`);
    try {
      usage = JSON.parse(options.usage);
    } catch (err) {
      throw new CliError(`--usage: not JSON (${(err as Error).message})`);
    }
  }
  const parsed = ResolveRequestSchema.safeParse({
    ...(options.usage !== undefined ? { usage } : { release: true }),
    actor: options.actor ?? defaultActor(),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`--${issue.path[0] === 'actor' ? 'actor' : 'usage'}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** A call the ledger refused (loosening, nothing to resolve): its code and what was wrong. */
function refused(err: unknown, id: string): never {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    throw new CliError(err.cause.message);
  }
  return notFound(err, id);
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

export function nonNegative(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`"${value}" is not a non-negative number.`);
  return n;
}

/** `ledger create` had no answer within `--wait`: what was done, and what it waits for. */
function noAnswer(id: string, queue: string, waitMs: number): CliError {
  return new CliError(
    `ledger ${id}: no answer within ${waitMs / 1_000} s (--wait): its workflow runs on task queue "${queue}" and no ` +
      'worker there answered. A new ledger is started with these limits and begins once a worker polls that queue ' +
      `(\`teamrun worker\`); check with \`teamrun ledger status ${id}\`. ` +
      "A running ledger's change was not confirmed: run the command again once its worker is back.",
  );
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1d`, `12h`, `30m`, `90s`, or milliseconds, in milliseconds; NaN when it is none of them. */
function durationMs(value: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  return match ? Number(match[1]) * (match[2] && match[2] !== 'ms' ? UNIT_MS[match[2]] : 1) : NaN;
}

/** `1d`, `12h`, `30m`, `90s`, or milliseconds; at least a second. */
export function windowOption(value: string): number {
  const ms = durationMs(value);
  if (!Number.isSafeInteger(ms) || ms < 1_000) {
    throw new InvalidArgumentError(`"${value}" is not a window of at least 1s (e.g. 1d, 12h, 30m, 90s).`);
  }
  return ms;
}

/** The longest `--wait`: a day (a Node timer past 24.8 days fires at once). */
const MAX_WAIT_MS = 86_400_000;

/** `ledger create --wait`: a second to a day. */
function waitOption(value: string): number {
  const ms = durationMs(value);
  if (!Number.isSafeInteger(ms) || ms < 1_000 || ms > MAX_WAIT_MS) {
    throw new InvalidArgumentError(`"${value}" is not a wait from 1s to 1d (e.g. 30s, 5m, 2h).`);
  }
  return ms;
}

/** The limits across runs (src/ledger/tree.ts), where the ledger sets any. */
function treeLines({ limits, used, spawnsHeld }: LedgerStatus): string[] {
  const lines: string[] = [];
  const n = (value: number) => value.toLocaleString('en-US');
  if (limits.maxTurns !== undefined)
    lines.push(`  turns      ${n(used.turns)} of ${n(limits.maxTurns)} model calls granted`);
  if (limits.maxSpawnedTasks !== undefined) {
    lines.push(
      `  spawned    ${n(used.spawnedTasks)} added by runs that left, ${n(spawnsHeld)} held by registered runs, ` +
        `of ${n(limits.maxSpawnedTasks)}`,
    );
  }
  const each = [
    ...(limits.maxDepth !== undefined ? [`maxDepth ${limits.maxDepth}`] : []),
    ...(limits.maxWallMs !== undefined ? [`maxWallMs ${n(limits.maxWallMs)}`] : []),
  ];
  if (each.length) lines.push(`  each run   ${each.join(', ')} at most`);
  return lines;
}

export function renderLedger(status: LedgerStatus): string {
  const { limits, used, reserved, exhausted, counters, lastAbort, window, recovery, lastResolution, operators } =
    status;
  const of = (value: string, max: number | undefined, unit = (n: number) => n.toLocaleString('en-US')) =>
    max === undefined ? value : `${value} of ${unit(max)}`;
  const dollars = (n: number) => `$${n.toFixed(n !== 0 && n < 0.01 ? 6 : 2)}`;
  const resets = window
    ? `${window.ms} ms, resets ${new Date(window.resetsAt).toISOString()}`
    : 'none (usage never resets)';
  const lines = [
    `ledger ${status.id} ` +
      `(workflow ${ledgerWorkflowId(status.id)})${exhausted ? `: EXHAUSTED (${exhausted.reason})` : ''}`,
    ...(recovery
      ? [
          `  RECOVERY REQUIRED since ${new Date(recovery.since).toISOString()}: ${recovery.count} lost attempt(s) ` +
            `(usage unknown; ${recovery.reservation.tokens.toLocaleString('en-US')} tokens, ` +
            `${dollars(recovery.reservation.usd)} reserved); no run starts an attempt until ` +
            `\`teamrun ledger resolve ${status.id} --usage '{...}'\` or \`--release\``,
        ]
      : []),
    `  in flight  ${of(String(status.inFlight), limits.maxConcurrent)}`,
    `  tokens     ${of(used.tokens.toLocaleString('en-US'), limits.maxTokens)} ` +
      `used, ${reserved.tokens.toLocaleString('en-US')} reserved`,
    `  usd        ${of(dollars(used.usd), limits.maxUsd, dollars)} used, ${dollars(reserved.usd)} reserved`,
    `  window     ${resets}`,
    ...treeLines(status),
    `  operators  ${operators ? operators.join(', ') : 'none (any actor may --force a loosening, resolve, abort-all)'}`,
    `  runs       ${status.runs.length} ` +
      `registered${status.runs.length ? `: ${status.runs.map((r) => r.workflowId).join(', ')}` : ''}`,
    `  attempts   ${counters.acquired} acquired, ${counters.settled} settled ` +
      `(${counters.duplicateSettles} duplicate settles charged nothing), ${counters.expired} slots expired`,
  ];
  for (const held of status.scopes) {
    const task = held.task === null ? '' : ` task ${held.task}`;
    const token = held.fencingToken === null ? '' : ` token ${held.fencingToken}`;
    lines.push(
      `  scope      ${held.scope.join(', ')}: run ${held.workflowId}${task}${token} since ` +
        `${new Date(held.since).toISOString()} (expires ${new Date(held.expiresAt).toISOString()} unless renewed)`,
    );
  }
  if (lastResolution) {
    const r = lastResolution;
    lines.push(
      `  resolved   ${new Date(r.at).toISOString()} by ${r.actor}: ${r.count} lost attempt(s), ` +
        `${r.how === 'usage' ? 'usage recorded' : 'reservations released'}`,
    );
  }
  if (lastAbort) {
    lines.push(
      `  last abort ${new Date(lastAbort.at).toISOString()} ${lastAbort.reason} ` +
        `by ${lastAbort.actor}: ${lastAbort.runs.length} run(s)`,
    );
  }
  return lines.join('\n');
}
