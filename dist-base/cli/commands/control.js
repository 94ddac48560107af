"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.actorOption = void 0;
exports.defaultActor = defaultActor;
exports.withRun = withRun;
exports.update = update;
exports.registerControl = registerControl;
const node_crypto_1 = require("node:crypto");
const node_os_1 = __importDefault(require("node:os"));
const client_1 = require("@temporalio/client");
const common_1 = require("@temporalio/common");
const commander_1 = require("commander");
const client_2 = require("../../client");
const messages_1 = require("../../workflows/messages");
const context_1 = require("../context");
const format_1 = require("../../format");
const options_1 = require("../options");
/** Who a control message says it comes from: `--actor`, else $TEAMRUN_ACTOR, else the login name. */
function defaultActor() {
    return process.env.TEAMRUN_ACTOR || node_os_1.default.userInfo().username;
}
const actorOption = () => new commander_1.Option('--actor <name>', 'who is asking, checked against governance.operators (default: $TEAMRUN_ACTOR, else your login name)');
exports.actorOption = actorOption;
/** Runs `fn` with a client and a handle on the run, closing the connection after. */
async function withRun(command, workflowId, fn) {
    return (0, context_1.withClient)(command, async (client) => {
        try {
            return await fn((0, client_2.teamRunHandle)(client, workflowId), client);
        }
        catch (err) {
            if (err instanceof client_1.WorkflowNotFoundError) {
                throw new context_1.CliError(`no open run with id "${workflowId}" in namespace ${client.options.namespace}`);
            }
            throw err;
        }
    });
}
/** An update its validator (or handler) refused: the stable code and what was wrong. */
function rejectionOf(err) {
    if (err instanceof client_1.WorkflowUpdateFailedError && err.cause instanceof common_1.ApplicationFailure) {
        return { code: err.cause.type ?? 'rejected', message: err.cause.message };
    }
    return null;
}
/** Sends the update `method` through the handle; a refusal is a CliError naming the message and its code. */
async function update(handle, method, ...args) {
    const send = handle[method];
    try {
        return await send(...args);
    }
    catch (err) {
        const what = messages_1.TEAM_RUN_MESSAGES[method].definition.name;
        const rejection = rejectionOf(err);
        if (rejection) {
            const said = rejection.message.startsWith(`${rejection.code}: `)
                ? rejection.message
                : `${rejection.code}: ${rejection.message}`;
            throw new context_1.CliError(`${what} rejected: ${said}`);
        }
        throw err;
    }
}
const time = (ms) => new Date(ms).toISOString();
function claimsTable(claims) {
    return (0, format_1.table)(['KEY', 'TOKEN', 'ATTEMPT', 'HOLDER', 'STARTED', 'INTERRUPTED'], claims.map((c) => [
        c.key,
        String(c.fencingToken),
        String(c.attempt),
        c.holder,
        time(c.startedAt),
        c.interrupted
            ? `yes (${c.interruption?.actor ?? 'unknown'}` +
                `${c.interruption?.requestId ? `, ${c.interruption.requestId}` : ''})`
            : 'no',
    ]));
}
function recordsTable(records) {
    return (0, format_1.table)(['KEY', 'CODE', 'TOKEN', 'ACTOR', 'REQUESTED', 'EVIDENCE', 'DECISION', 'REASON'], records.map((r) => [
        r.key,
        r.code,
        String(r.fencingToken),
        r.actor ?? '-',
        time(r.requestedAt),
        r.evidenceDigest ?? '-',
        r.decision ? `${r.decision.decision} (${r.decision.actor ?? '-'})` : 'pending',
        (0, format_1.oneLine)(r.reason ?? '', 50),
    ]));
}
const WHY_NOT = {
    not_active: 'the task has no live attempt (it has not started, or it has already settled)',
    stale_attempt: 'the attempt changed since its token was read; look again with `teamrun claims`',
    already_interrupted: 'another request already interrupted this attempt',
};
function explainInterrupt(key, verdict) {
    if (!verdict.ok)
        return `not interrupted: ${verdict.reason}: ${WHY_NOT[verdict.reason] ?? verdict.message ?? ''}`;
    const i = verdict.interruption;
    const how = verdict.idempotent ? 'already interrupted by this request' : 'interrupted';
    return [
        `${how}: ${key} (token ${i.fencingToken}, ${i.holder})`,
        `  request ${i.requestId ?? '-'} by ${i.actor ?? '-'}`,
        `  the attempt is being cancelled; it settles in adjudication (see \`teamrun adjudications\`)`,
    ].join('\n');
}
function decisionOf(options) {
    const chosen = ['retry', 'accept', 'reject'].filter((d) => options[d]);
    if (chosen.length !== 1)
        throw new context_1.CliError('give exactly one of --retry, --accept or --reject');
    return chosen[0];
}
function parseResult(text) {
    if (text === undefined)
        return undefined;
    try {
        return JSON.parse(text);
    }
    catch (err) {
        throw new context_1.CliError(`--result is not JSON: ${err.message}`);
    }
}
/** `claims`, `interrupt`, `abort`, `adjudications`, `adjudicate`: taking over and stopping a run. */
function registerControl(program) {
    program
        .command('claims <workflowId>')
        .description('attempts that hold a lease now, with the fencing token an interruption must name')
        .option('--json', 'print JSON')
        .action(async (workflowId, options, command) => {
        const claims = await withRun(command, workflowId, (handle) => handle.activeClaims());
        if (options.json)
            (0, context_1.printJson)(claims);
        else
            process.stdout.write(claims.length ? `${claimsTable(claims)}\n` : 'no attempt holds a lease\n');
    });
    program
        .command('interrupt <workflowId> <key>')
        .description('take over a running task: cancel the attempt you see in `teamrun claims`; it settles in adjudication')
        .option('--reason <text>', 'why, for the adjudication record')
        .option('--request-id <id>', 'id of this request; repeating it is idempotent (default: a fresh uuid)')
        .addOption((0, exports.actorOption)())
        .option('--fencing-token <n>', 'interrupt only the attempt with this token (default: the current one, read first)', options_1.intOption)
        .option('--json', 'print the verdict as JSON')
        .action(async (workflowId, key, options, command) => {
        const verdict = await withRun(command, workflowId, async (handle) => {
            // The token is read first, so this can only ever stop the attempt that was seen.
            const fencingToken = options.fencingToken ?? (await handle.activeClaims()).find((c) => c.key === key)?.fencingToken;
            const request = {
                key,
                fencingToken,
                requestId: options.requestId ?? (0, node_crypto_1.randomUUID)(),
                actor: options.actor ?? defaultActor(),
                reason: options.reason,
            };
            return update(handle, 'interrupt', request);
        });
        if (options.json)
            (0, context_1.printJson)(verdict);
        else
            process.stdout.write(`${explainInterrupt(key, verdict)}\n`);
        if (!verdict.ok)
            process.exitCode = 1;
    });
    program
        .command('abort <workflowId>')
        .description('stop the whole run: nothing new starts, running attempts are cancelled into adjudication, the rest skipped')
        .requiredOption('--reason <text>', 'why, for the record and every adjudication it causes')
        .option('--request-id <id>', 'id of this request (default: a fresh uuid)')
        .option('--code <CODE>', 'code on the adjudications it causes, [A-Z0-9_]{1,64} (default TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED)')
        .addOption((0, exports.actorOption)())
        .option('--no-adjudication', 'fail the cancelled attempts instead of sending them to adjudication')
        .option('--json', 'print the verdict as JSON')
        .action(async (workflowId, options, command) => {
        const request = {
            ...(options.code ? { code: options.code } : {}),
            reason: options.reason,
            requestId: options.requestId ?? (0, node_crypto_1.randomUUID)(),
            actor: options.actor ?? defaultActor(),
            requireAdjudication: options.adjudication,
        };
        const verdict = await withRun(command, workflowId, (handle) => update(handle, 'abort', request));
        if (options.json)
            (0, context_1.printJson)(verdict);
        else if (!verdict.ok)
            process.stdout.write(`not aborted: ${verdict.reason}${verdict.message ? `: ${verdict.message}` : ''}\n`);
        else {
            const settle = options.adjudication ? 'settle in adjudication' : 'fail';
            const how = verdict.idempotent ? 'already aborted' : 'aborted';
            process.stdout.write(`${how}: ${verdict.activeClaims} running attempt(s) cancelled; ` +
                `they ${settle}, and tasks not started are skipped\n`);
        }
        if (!verdict.ok)
            process.exitCode = 1;
    });
    program
        .command('adjudications <workflowId>')
        .description('adjudication records of a run: pending (decision "pending") and decided')
        .option('--json', 'print the full records as JSON')
        .action(async (workflowId, options, command) => {
        const records = await withRun(command, workflowId, async (handle) => {
            const { status } = await handle.describe();
            return status.name === 'RUNNING' ? handle.adjudications() : (await (0, client_2.teamRunResult)(handle)).adjudications;
        });
        if (options.json) {
            (0, context_1.printJson)(records);
            return;
        }
        const pending = records.filter((r) => r.decision === null).length;
        process.stdout.write(records.length ? `${recordsTable(records)}\n${pending} pending\n` : 'no adjudications\n');
    });
    program
        .command('adjudicate <workflowId> <key>')
        .description('decide a task in adjudication: --retry (run it again), ' +
        '--accept (mark it succeeded) or --reject (mark it failed)')
        .option('--retry', 'run the task again, with a new fencing token')
        .option('--accept', 'mark it succeeded (with --result as its output, else what the attempt reported)')
        .option('--reject', 'mark it failed; its dependents are skipped')
        .option('--result <json>', 'with --accept: the output to record')
        .option('--decision-id <id>', 'id of this decision; repeating it returns the first outcome (default: a fresh uuid)')
        .addOption((0, exports.actorOption)())
        .option('--reason <text>', 'why, for the record')
        .option('--evidence-digest <digest>', 'refuse unless the record holds this evidence digest')
        .option('--json', 'print the outcome as JSON')
        .action(async (workflowId, key, options, command) => {
        const request = {
            key,
            decision: decisionOf(options),
            decisionId: options.decisionId ?? (0, node_crypto_1.randomUUID)(),
            actor: options.actor ?? defaultActor(),
            reason: options.reason,
            evidenceDigest: options.evidenceDigest,
            result: parseResult(options.result),
        };
        const outcome = await withRun(command, workflowId, (handle) => update(handle, 'adjudicate', request));
        if (options.json)
            (0, context_1.printJson)(outcome);
        else {
            const again = outcome.idempotent ? ' (decided earlier with this decision id)' : '';
            process.stdout.write(`${key}: ${request.decision} -> ${outcome.task.status}${again}\n  ` +
                `decision ${request.decisionId} by ${request.actor}\n`);
        }
    });
}
