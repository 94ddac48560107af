"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerDemo = registerDemo;
const node_path_1 = __importDefault(require("node:path"));
const client_1 = require("@temporalio/client");
const client_2 = require("../../client");
const codec_1 = require("../../codec");
const binary_1 = require("../../devserver/binary");
const context_1 = require("../context");
const start_errors_1 = require("../start-errors");
const format_1 = require("../../format");
const options_1 = require("../options");
const plan_file_1 = require("../plan-file");
const render_1 = require("../render");
const wait_1 = require("../wait");
const web_ui_1 = require("../web-ui");
const log = (line) => process.stderr.write(`teamrun demo: ${line}\n`);
function registerDemo(program) {
    program
        .command('demo')
        .description('the quick start: start a local Temporal (unless one answers) ' +
        'and a worker, run examples/demo.yaml, print the summary, stop')
        .option('--keep', 'keep the server and the worker running afterwards, to browse the Web UI (Ctrl-C stops them)')
        .option('--plan <file>', 'the plan to run (default: examples/demo.yaml)')
        .option('--ui-port <port>', 'Web UI port (as for `teamrun dev`); the frontend is at connection.address', options_1.intOption)
        .action(async (options, command) => {
        const began = Date.now();
        const { input, plan } = (0, plan_file_1.readPlan)(options.plan ?? node_path_1.default.join((0, binary_1.projectRoot)(), 'examples', 'demo.yaml'));
        const config = (0, context_1.configFrom)(command);
        // The worker's native runtime loads only for the commands that run one.
        const { installRuntime, onInterrupt, startStack } = require('../local-stack');
        // The demo fails a task on purpose; the worker's warning about it would only be noise here.
        installRuntime('ERROR');
        const stack = await startStack(config, { reuseRunning: true, uiPort: options.uiPort, log });
        const interrupt = interruptible(stack, onInterrupt);
        const client = new client_1.Client({
            connection: await client_1.Connection.connect(stack.connect),
            namespace: config.connection.namespace,
            dataConverter: (0, codec_1.dataConverterFor)(config),
        });
        try {
            const handle = await (0, client_2.startTeamRun)(client, input, { taskQueue: config.connection.taskQueue }).catch(async (err) => {
                throw await (0, start_errors_1.startFailure)(err, client, input);
            });
            const link = stack.webUi && (0, web_ui_1.workflowUrl)(stack.webUi, config.connection.namespace, handle.workflowId);
            process.stdout.write(`\nstarted team run ${handle.workflowId}: ${plan.tasks.length} tasks, ${plan.teammates} teammates\n` +
                (link ? `web ui: ${link}\n` : ''));
            const result = await (0, wait_1.waitForRun)(handle);
            process.stdout.write(`\n${(0, render_1.renderResult)(handle.workflowId, result)}\n\n`);
            if (stack.webUi)
                process.stdout.write(uiGuide(stack.webUi, config.connection.namespace, plan.name, link));
            process.stdout.write(`demo finished in ${(0, format_1.duration)(Date.now() - began)}: ${result.status}\n`);
            if (result.status !== 'succeeded')
                process.exitCode = 1;
            if (options.keep) {
                process.stdout.write(`\nthe server and the worker keep ` +
                    `running${stack.webUi ? ` (${stack.webUi})` : ''}; press Ctrl-C to stop them\n`);
                await interrupt.untilCtrlC();
            }
        }
        finally {
            interrupt.unhook();
            await client.connection.close();
            await stack.stop(log);
        }
    });
}
/**
 * Ctrl-C while the demo runs stops the worker and the server it started, then exits (a second
 * one kills at once); after `untilCtrlC()` it ends the wait instead.
 */
function interruptible(stack, onInterrupt) {
    let endWait = null;
    const unhook = onInterrupt(() => {
        if (endWait)
            return endWait();
        log('interrupted');
        void stack.stop(log).finally(() => process.exit(130));
    }, () => {
        stack.server?.process.kill('SIGKILL');
        process.exit(130);
    });
    return { untilCtrlC: () => new Promise((resolve) => (endWait = resolve)), unhook };
}
function uiGuide(webUi, namespace, teamName, link) {
    const list = `${webUi}/namespaces/${encodeURIComponent(namespace)}` +
        `/workflows?query=${encodeURIComponent(`TeamName="${teamName}"`)}`;
    return [
        'In the Temporal Web UI:',
        `  this run:          ${link}`,
        '                     Event History: one runTask activity per attempt, id <task key>#<fencing token>',
        '                     (the retried task has two); Current Details: the progress summary;',
        '                     Queries tab: status, tasks, budget, events',
        `  all demo runs:     ${list}`,
        '                     the search attributes TeamName and TeamRunStatus filter and label team runs',
        '',
    ].join('\n');
}
