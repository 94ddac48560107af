"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerMailbox = registerMailbox;
const commander_1 = require("commander");
const attempt_env_1 = require("../attempt-env");
const context_1 = require("../context");
const format_1 = require("../../format");
const options_1 = require("../options");
const control_1 = require("./control");
/** A body given on the command line: JSON when it parses, else the text itself. */
function bodyOf(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return text;
    }
}
function messagesTable(messages) {
    return (0, format_1.table)(['ID', 'AT', 'FROM', 'TO', 'SUBJECT', 'BODY'], messages.map((m) => [
        String(m.id),
        new Date(m.at).toISOString(),
        m.from,
        m.to,
        m.subject ?? '-',
        (0, format_1.oneLine)(JSON.stringify(m.body), 60),
    ]));
}
/** `inbox`, `send`, `messages`, `members`: the teammates' mailbox, from inside a task and from outside. */
function registerMailbox(program) {
    program
        .command('inbox')
        .description('inside a shell task: read the messages waiting for it (its run, ' +
        'key and fencing token come from $TEAMRUN_*); prints them as JSON')
        .option('--peek', 'show them without marking them read')
        .action(async (options, command) => {
        const attempt = (0, attempt_env_1.attemptFromEnv)();
        if (!attempt)
            throw new context_1.CliError('teamrun inbox runs inside a task: TEAMRUN_WORKFLOW_ID, ' +
                'TEAMRUN_TASK_KEY and TEAMRUN_FENCING_TOKEN must be set');
        const peek = options.peek === true;
        const gateway = (0, attempt_env_1.gatewayFromEnv)();
        // Through the worker's gateway the run knows it is the attempt; without one, as a person with the token.
        const { messages } = gateway
            ? await (0, attempt_env_1.askGateway)(gateway, 'readInbox', { peek })
            : await (0, control_1.withRun)(command, attempt.workflowId, (handle) => (0, control_1.update)(handle, 'readInbox', { key: attempt.key, fencingToken: attempt.fencingToken, peek }));
        // One line, so a shell can use it as is (`::teamrun-output::{"got":$(teamrun inbox)}`).
        process.stdout.write(`${JSON.stringify(messages)}\n`);
    });
    program
        .command('send [workflowId] [body]')
        .description('send a mailbox message. Inside a shell task: `teamrun ' +
        'send --to reviewer \'{"fix":"..."}\'` sends as the task. ' +
        'From outside: `teamrun send RUN --to KEY BODY` sends as ' +
        'coordinator (or --from), checked against governance.operators')
        .requiredOption('--to <recipient>', 'a task key, teammate-<n>, coordinator, or * (every task not yet settled)')
        .option('--subject <text>', 'a subject line')
        .option('--from <name>', 'outside a task: who it is from (default: coordinator)')
        .addOption((0, control_1.actorOption)())
        .addOption(new commander_1.Option('--json', 'print the answer as JSON'))
        .action(async (first, second, options, command) => {
        const attempt = (0, attempt_env_1.attemptFromEnv)();
        // Inside a task the run is implied: a lone argument is the body.
        const inside = attempt !== null && second === undefined;
        const workflowId = inside ? attempt.workflowId : first;
        const text = inside ? first : second;
        if (!workflowId)
            throw new context_1.CliError('give the run: teamrun send RUN --to KEY BODY (inside a task the run comes from $TEAMRUN_WORKFLOW_ID)');
        if (text === undefined)
            throw new context_1.CliError('give the message body (JSON, or plain text)');
        const gateway = inside ? (0, attempt_env_1.gatewayFromEnv)() : null;
        const request = inside
            ? {
                from: attempt.key,
                fencingToken: attempt.fencingToken,
                to: options.to,
                subject: options.subject,
                body: bodyOf(text),
            }
            : {
                from: options.from ?? 'coordinator',
                actor: options.actor ?? (0, control_1.defaultActor)(),
                to: options.to,
                subject: options.subject,
                body: bodyOf(text),
            };
        const answer = gateway
            ? await (0, attempt_env_1.askGateway)(gateway, 'sendMessage', {
                to: options.to,
                subject: options.subject,
                body: bodyOf(text),
            })
            : await (0, control_1.withRun)(command, workflowId, (handle) => (0, control_1.update)(handle, 'sendMessage', request));
        if (options.json)
            (0, context_1.printJson)(answer);
        else
            process.stdout.write(`sent message ${answer.id} to ${options.to}\n`);
    });
    program
        .command('messages <workflowId>')
        .description('the mailbox messages a run holds, oldest first')
        .option('--to <recipient>', 'only those sent to this recipient')
        .option('--after <id>', 'only those after this id', options_1.intOption)
        .option('--limit <n>', 'at most this many (at most 100)', options_1.intOption)
        .option('--json', 'print JSON')
        .action(async (workflowId, options, command) => {
        const page = await (0, control_1.withRun)(command, workflowId, (handle) => handle.messages({ to: options.to, after: options.after, limit: options.limit }));
        if (options.json)
            (0, context_1.printJson)(page);
        else
            process.stdout.write(page.messages.length ? `${messagesTable(page.messages)}\n` : 'no messages\n');
    });
    program
        .command('members <workflowId>')
        .description('one row per teammate slot: idle, running or shutdown, its task, and what it has done')
        .option('--json', 'print JSON')
        .action(async (workflowId, options, command) => {
        const members = await (0, control_1.withRun)(command, workflowId, (handle) => handle.members());
        if (options.json)
            (0, context_1.printJson)(members);
        else {
            const rows = members.map((m) => [
                m.holder,
                m.state,
                m.currentTask ?? '-',
                String(m.completed),
                String(m.failed),
                new Date(m.since).toISOString(),
                (0, format_1.oneLine)(m.lastError ?? '', 50),
            ]);
            process.stdout.write(`${(0, format_1.table)(['HOLDER', 'STATE', 'TASK', 'DONE', 'FAILED', 'SINCE', 'LAST ERROR'], rows)}\n`);
        }
    });
}
