"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerWatch = registerWatch;
const client_1 = require("@temporalio/client");
const client_2 = require("../../client");
const context_1 = require("../context");
const render_1 = require("../render");
const wait_1 = require("../wait");
function registerWatch(program) {
    program
        .command('watch <workflowId>')
        .description('live progress of a run until it ends (a bar on a terminal, plain ' +
        'lines otherwise), then its summary; exit 0 only if it succeeded')
        .option('--json', 'print the run result as JSON at the end')
        .action(async (workflowId, options, command) => {
        await (0, context_1.withClient)(command, async (client) => {
            const handle = (0, client_2.teamRunHandle)(client, workflowId);
            await handle.describe().catch((err) => {
                throw err instanceof client_1.WorkflowNotFoundError
                    ? new context_1.CliError(`no run with id "${workflowId}" in namespace ${client.options.namespace}`)
                    : err;
            });
            const result = await (0, wait_1.waitForRun)(handle, {}, { leaveOnCtrlC: true });
            if (options.json)
                (0, context_1.printJson)({ workflowId, ...result });
            else
                process.stdout.write(`${(0, render_1.renderResult)(workflowId, result)}\n`);
            if (result.status !== 'succeeded')
                process.exitCode = 1;
        });
    });
}
