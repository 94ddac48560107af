"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerLedger = registerLedger;
exports.nonNegative = nonNegative;
exports.windowOption = windowOption;
exports.renderLedger = renderLedger;
const common_1 = require("@temporalio/common");
const client_1 = require("@temporalio/client");
const commander_1 = require("commander");
const client_2 = require("../../ledger/client");
const ledger_1 = require("../../plan/requests/ledger");
const context_1 = require("../context");
const control_1 = require("./control");
/** The longest `--usage` JSON `ledger resolve` reads. */
const MAX_USAGE_CHARS = 4_096;
/** `teamrun ledger create|status|abort-all <id>`: a budget shared by many runs. */
function registerLedger(program) {
    const ledger = program
        .command('ledger')
        .description('shared budgets: one ledger caps attempts in flight, tokens ' +
        'and dollars across every run that names it (budget.ledger)');
    ledger
        .command('create <id>')
        .description('create a ledger with these limits, or set these limits on a running one (they only tighten unless --force)')
        .option('--max-concurrent <n>', 'attempts in flight across all runs', positiveInt)
        .option('--max-tokens <n>', 'tokens (input + output + cache) per window', nonNegative)
        .option('--max-usd <n>', 'dollars per window', nonNegative)
        .option('--window <duration>', 'usage resets every window, e.g. 1d, 12h, 30m (default: never)', windowOption)
        .option('--force', "loosen a running ledger's limits (recorded with --actor)")
        .addOption((0, control_1.actorOption)())
        .option('--json', 'print JSON')
        .action(async (id, options, command) => {
        ledgerId(id);
        const limits = {
            ...(options.maxConcurrent !== undefined && { maxConcurrent: options.maxConcurrent }),
            ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
            ...(options.maxUsd !== undefined && { maxUsd: options.maxUsd }),
            ...(options.window !== undefined && { windowMs: options.window }),
        };
        await (0, context_1.withClient)(command, async (client, config) => {
            const status = await (0, client_2.createLedger)(client, id, limits, {
                taskQueue: config.connection.taskQueue,
                ...(options.force ? { force: true } : {}),
                actor: options.actor ?? (0, control_1.defaultActor)(),
            }).catch((err) => refused(err, id));
            if (options.json)
                (0, context_1.printJson)(status);
            else
                process.stdout.write(`${renderLedger(status)}\n`);
        });
    });
    ledger
        .command('status <id>')
        .description('limits, attempts in flight, used and reserved budget, registered runs, last abort')
        .option('--json', 'print JSON')
        .action(async (id, options, command) => {
        ledgerId(id);
        await (0, context_1.withClient)(command, async (client) => {
            const status = await (0, client_2.ledgerStatus)(client, id).catch((err) => notFound(err, id));
            if (options.json)
                (0, context_1.printJson)(status);
            else
                process.stdout.write(`${renderLedger(status)}\n`);
        });
    });
    ledger
        .command('resolve <id>')
        .description("settle the ledger's lost attempts (usage unknown), so runs start attempts on it again: record what they " +
        'used, or release them (their reservations are charged)')
        .option('--usage <json>', 'what the lost attempts used together: {"inputTokens":..,"outputTokens":..,"costUsd":..}')
        .option('--release', 'charge what the lost attempts reserved instead')
        .addOption((0, control_1.actorOption)())
        .option('--json', 'print JSON')
        .action(async (id, options, command) => {
        ledgerId(id);
        const request = resolveRequest(options);
        await (0, context_1.withClient)(command, async (client) => {
            const verdict = await (0, client_2.resolveLedger)(client, id, request).catch((err) => refused(err, id));
            if (options.json)
                return (0, context_1.printJson)(verdict);
            const { resolution: r } = verdict;
            process.stdout.write(`ledger ${id}: ${r.count} lost attempt(s) resolved by ${r.actor} ` +
                `(${r.how === 'usage' ? 'usage recorded' : 'reservations released'}): charged ${r.charged.tokens} ` +
                `tokens, $${r.charged.usd}; runs start attempts again\n`);
        });
    });
    ledger
        .command('abort-all <id>')
        .description('abort every run registered with the ledger now (their active attempts go to adjudication)')
        .option('--reason <text>', 'why, recorded in each run (default: session-budget-exhausted)')
        .option('--actor <name>', 'who, recorded in the ledger')
        .action(async (id, options, command) => {
        ledgerId(id);
        await (0, context_1.withClient)(command, async (client) => {
            const verdict = await (0, client_2.abortAllLedger)(client, id, options).catch((err) => notFound(err, id));
            const runs = verdict.runs.length ? `: ${verdict.runs.join(', ')}` : '';
            process.stdout.write(`ledger ${id}: abortRun sent to ${verdict.runs.length} run(s)${runs}\n`);
        });
    });
}
function ledgerId(id) {
    const parsed = ledger_1.LedgerIdSchema.safeParse(id);
    if (!parsed.success)
        throw new context_1.CliError(`"${id}": ${parsed.error.issues[0].message}`);
}
function resolveRequest(options) {
    if ((options.usage === undefined) === (options.release === undefined)) {
        throw new context_1.CliError('give either --usage \'{"inputTokens":..,"costUsd":..}\' or --release');
    }
    let usage;
    if (options.usage !== undefined) {
        if (options.usage.length > MAX_USAGE_CHARS)
            throw new context_1.CliError(`--usage: longer than ${MAX_USAGE_CHARS} chars`);
        try {
            usage = JSON.parse(options.usage);
        }
        catch (err) {
            throw new context_1.CliError(`--usage: not JSON (${err.message})`);
        }
    }
    const parsed = ledger_1.ResolveRequestSchema.safeParse({
        ...(options.usage !== undefined ? { usage } : { release: true }),
        actor: options.actor ?? (0, control_1.defaultActor)(),
    });
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new context_1.CliError(`--${issue.path[0] === 'actor' ? 'actor' : 'usage'}: ${issue.path.join('.')}: ${issue.message}`);
    }
    return parsed.data;
}
/** A call the ledger refused (loosening, nothing to resolve): its code and what was wrong. */
function refused(err, id) {
    if (err instanceof client_1.WorkflowUpdateFailedError && err.cause instanceof common_1.ApplicationFailure) {
        throw new context_1.CliError(err.cause.message);
    }
    return notFound(err, id);
}
function notFound(err, id) {
    if (err instanceof common_1.WorkflowNotFoundError) {
        throw new context_1.CliError(`no ledger "${id}" (workflow ${(0, ledger_1.ledgerWorkflowId)(id)}); create it with \`teamrun ledger create ${id}\``);
    }
    throw err;
}
function positiveInt(value) {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < 1)
        throw new commander_1.InvalidArgumentError(`"${value}" is not a positive integer.`);
    return n;
}
function nonNegative(value) {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0)
        throw new commander_1.InvalidArgumentError(`"${value}" is not a non-negative number.`);
    return n;
}
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** `1d`, `12h`, `30m`, `90s`, or milliseconds; at least a second. */
function windowOption(value) {
    const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
    const ms = match ? Number(match[1]) * (match[2] && match[2] !== 'ms' ? UNIT_MS[match[2]] : 1) : NaN;
    if (!Number.isSafeInteger(ms) || ms < 1_000) {
        throw new commander_1.InvalidArgumentError(`"${value}" is not a window of at least 1s (e.g. 1d, 12h, 30m, 90s).`);
    }
    return ms;
}
function renderLedger(status) {
    const { limits, used, reserved, exhausted, counters, lastAbort, window, recovery, lastResolution } = status;
    const of = (value, max, unit = (n) => n.toLocaleString('en-US')) => max === undefined ? value : `${value} of ${unit(max)}`;
    const dollars = (n) => `$${n.toFixed(n !== 0 && n < 0.01 ? 6 : 2)}`;
    const resets = window
        ? `${window.ms} ms, resets ${new Date(window.resetsAt).toISOString()}`
        : 'none (usage never resets)';
    const lines = [
        `ledger ${status.id} ` +
            `(workflow ${(0, ledger_1.ledgerWorkflowId)(status.id)})${exhausted ? `: EXHAUSTED (${exhausted.reason})` : ''}`,
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
        `  runs       ${status.runs.length} ` +
            `registered${status.runs.length ? `: ${status.runs.map((r) => r.workflowId).join(', ')}` : ''}`,
        `  attempts   ${counters.acquired} acquired, ${counters.settled} settled ` +
            `(${counters.duplicateSettles} duplicate settles charged nothing), ${counters.expired} slots expired`,
    ];
    if (lastResolution) {
        const r = lastResolution;
        lines.push(`  resolved   ${new Date(r.at).toISOString()} by ${r.actor}: ${r.count} lost attempt(s), ` +
            `${r.how === 'usage' ? 'usage recorded' : 'reservations released'}`);
    }
    if (lastAbort) {
        lines.push(`  last abort ${new Date(lastAbort.at).toISOString()} ${lastAbort.reason} ` +
            `by ${lastAbort.actor}: ${lastAbort.runs.length} run(s)`);
    }
    return lines.join('\n');
}
