"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerSpawn = registerSpawn;
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const commander_1 = require("commander");
const attempt_env_1 = require("../attempt-env");
const context_1 = require("../context");
const control_1 = require("./control");
/** `{"tasks":[...]}` or a bare array, from a file, `-` (stdin) or `--tasks` inline. */
function readTasks(file, inline) {
    if ((file === undefined) === (inline === undefined))
        throw new context_1.CliError('give the tasks: a JSON file (or - for stdin), or --tasks JSON');
    const text = inline ?? (0, context_1.userFile)(() => (0, node_fs_1.readFileSync)(file === '-' ? 0 : file, 'utf8'));
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (err) {
        throw new context_1.CliError(`the tasks are not JSON: ${err.message}`);
    }
    const tasks = Array.isArray(value) ? value : value?.tasks;
    if (!Array.isArray(tasks))
        throw new context_1.CliError('the tasks are {"tasks":[TaskSpec...]} or [TaskSpec...]');
    // Checked by the run, against its graph, as a plan's tasks are.
    return tasks;
}
/** `add-tasks`: grow a running run, from inside one of its tasks (fenced) or from outside (governed). */
function registerSpawn(program) {
    program
        .command('add-tasks [workflowId] [file]')
        .description('add tasks to a running run (the addTasks update). Inside ' +
        'a shell task: `teamrun add-tasks tasks.json` adds them as ' +
        'children of the task, fenced by its token (the task needs ' +
        '"allowSpawn": true). From outside: `teamrun add-tasks RUN tasks.json`, ' +
        'checked against governance.operators. A request id makes it idempotent: the same id again adds nothing')
        .option('--tasks <json>', 'the tasks inline instead of a file: {"tasks":[...]} or [...]')
        .option('--request-id <id>', 'idempotency key (default: <key>#<fencingToken> inside a task, a random id outside)')
        .option('--parent <key>', 'outside a task: the task to show the new ones under (its depth counts toward budget.maxDepth)')
        .addOption((0, control_1.actorOption)())
        .addOption(new commander_1.Option('--json', 'print the answer as JSON'))
        .action(async (first, second, options, command) => {
        const attempt = (0, attempt_env_1.attemptFromEnv)();
        // Inside a task the run is implied: a lone argument is the file.
        const inside = attempt !== null && second === undefined && options.parent === undefined;
        const workflowId = inside ? attempt.workflowId : first;
        if (!workflowId)
            throw new context_1.CliError('give the run: teamrun add-tasks RUN tasks.json (inside a task the run comes from $TEAMRUN_WORKFLOW_ID)');
        const tasks = readTasks(inside ? first : second, options.tasks);
        const request = inside
            ? {
                tasks,
                parent: attempt.key,
                fencingToken: attempt.fencingToken,
                requestId: options.requestId ?? `${attempt.key}#${attempt.fencingToken}`,
            }
            : {
                tasks,
                ...(options.parent ? { parent: options.parent } : {}),
                requestId: options.requestId ?? (0, node_crypto_1.randomUUID)(),
                actor: options.actor ?? (0, control_1.defaultActor)(),
            };
        const gateway = inside ? (0, attempt_env_1.gatewayFromEnv)() : null;
        // Through the worker's gateway the run knows it is the attempt; without one, as a person with the token.
        const answer = gateway
            ? await (0, attempt_env_1.askGateway)(gateway, 'addTasks', { tasks, requestId: request.requestId })
            : await (0, control_1.withRun)(command, workflowId, (handle) => (0, control_1.update)(handle, 'addTasks', request));
        if (options.json)
            (0, context_1.printJson)(answer);
        else
            process.stdout.write(`${answer.idempotent ? 'already added by this request' : 'added'}: ${answer.added.join(', ')}\n`);
    });
}
