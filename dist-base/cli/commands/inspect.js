"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.STATUS_ALIASES = void 0;
exports.taskStatusOption = taskStatusOption;
exports.registerInspect = registerInspect;
const commander_1 = require("commander");
const client_1 = require("../../ledger/client");
const types_1 = require("../../team/types");
const context_1 = require("../context");
const options_1 = require("../options");
const render_1 = require("../render");
const run_view_1 = require("../run-view");
const web_ui_1 = require("../web-ui");
/** The words `status` and the progress line use for groups of task states. */
exports.STATUS_ALIASES = {
    running: ['leased'],
    pending: ['ready', 'blocked'],
};
/** A task state of the contract, or a summary word standing for some (`pending` = ready or blocked). */
function taskStatusOption(value) {
    if (types_1.TASK_STATUSES.includes(value))
        return [value];
    if (Object.hasOwn(exports.STATUS_ALIASES, value))
        return [...exports.STATUS_ALIASES[value]];
    throw new commander_1.InvalidArgumentError(`"${value}" is not a task status (${types_1.TASK_STATUSES.join(', ')}; or ${Object.entries(exports.STATUS_ALIASES)
        .map(([word, states]) => `${word} = ${states.join(' or ')}`)
        .join(', ')}).`);
}
/** `status` and `tasks`: read-only views of one run, open or closed. */
function registerInspect(program) {
    program
        .command('status <workflowId>')
        .description('state, task counts, budget (used / reserved / limit) and pending adjudications of a run')
        .option('--json', 'print JSON')
        .action(async (workflowId, options, command) => {
        await (0, context_1.withClient)(command, async (client, config) => {
            const overview = await new run_view_1.RunReader(client, workflowId).overview();
            if (options.json)
                (0, context_1.printJson)(overview);
            else {
                const waiting = await ledgerWait(client, overview);
                process.stdout.write(`${(0, render_1.renderOverview)(overview, (0, web_ui_1.runUrl)(config, workflowId))}\n${waiting ?? ''}`);
            }
        });
    });
    program
        .command('tasks <workflowId>')
        .description('the tasks of a run: status, attempts, fencing token, holder, last error or output')
        .option('--status <status>', `only tasks in this status (${types_1.TASK_STATUSES.join(', ')}; running = leased, pending = ready or blocked)`, taskStatusOption)
        .option('--offset <n>', 'skip this many (after the status filter)', options_1.intOption, 0)
        .option('--limit <n>', 'show at most this many', options_1.intOption, 100)
        .option('--json', 'print JSON')
        .action(async (workflowId, options, command) => {
        await (0, context_1.withClient)(command, async (client) => {
            const reader = new run_view_1.RunReader(client, workflowId);
            const statuses = options.status ?? [undefined];
            let tasks;
            if (statuses.length === 1) {
                tasks = await reader.tasks({ status: statuses[0], offset: options.offset, limit: options.limit });
            }
            else {
                // An alias for several states: each state's first offset+limit tasks, in the alias's order.
                const pages = [];
                for (const status of statuses)
                    pages.push(...(await reader.tasks({ status, offset: 0, limit: options.offset + options.limit })));
                tasks = pages.slice(options.offset, options.offset + options.limit);
            }
            if (options.json)
                (0, context_1.printJson)(tasks);
            else
                process.stdout.write(tasks.length ? `${(0, render_1.tasksTable)(tasks, 100)}\n` : 'no tasks match\n');
        });
    });
}
/** An open run on a ledger that requires recovery starts no attempt until an operator acts: say so. */
async function ledgerWait(client, overview) {
    const ledger = overview.budget?.limits.ledger;
    if (!overview.open || !ledger)
        return null;
    // The run's status stands without it: a ledger that cannot be read adds no line.
    const status = await (0, client_1.ledgerStatus)(client, ledger).catch(() => null);
    if (!status?.recovery)
        return null;
    return (`waiting  ledger ${ledger} requires recovery: ${status.recovery.count} lost attempt(s) with unknown usage; ` +
        `no attempt starts until \`teamrun ledger resolve ${ledger} --usage '{...}'\` (or --release)\n`);
}
