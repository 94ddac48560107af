"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerStart = registerStart;
const client_1 = require("../../client");
const context_1 = require("../context");
const start_errors_1 = require("../start-errors");
const plan_file_1 = require("../plan-file");
const render_1 = require("../render");
const wait_1 = require("../wait");
const web_ui_1 = require("../web-ui");
const spans_1 = require("../../telemetry/spans");
function registerStart(program) {
    program
        .command('start <plan>')
        .description('check a plan file, start it as a team run, and print its workflow id (and Web UI link on a local server)')
        .option('--id <workflowId>', 'workflow id of the run (default: <plan name>-<timestamp>)')
        .option('--wait', 'show progress until the run ends, print its summary; exit 0 only if it succeeded')
        .option('--json', 'print JSON: the workflow id, or with --wait the run result')
        .option('--kind <kind...>', plan_file_1.KIND_OPTION_HELP)
        .action(async (file, options, command) => {
        // Exactly what `teamrun validate` checks: nothing starts that validate would refuse.
        const { input } = (0, plan_file_1.readPlan)(file, (0, plan_file_1.planChecks)((0, context_1.configFrom)(command), options.kind));
        await (0, context_1.withClient)(command, async (client, config) => {
            const handle = await start(client, config, input, options.id);
            const link = (0, web_ui_1.runUrl)(config, handle.workflowId);
            if (options.json && !options.wait) {
                (0, context_1.printJson)({ workflowId: handle.workflowId, webUi: link });
                return;
            }
            process.stdout.write(`started ${handle.workflowId} on task queue "${config.connection.taskQueue}"\n`);
            if (link)
                process.stdout.write(`web ui: ${link}\n`);
            await warnWithoutWorker(client, config);
            if (!options.wait)
                return;
            const result = await (0, wait_1.waitForRun)(handle, {}, { leaveOnCtrlC: true });
            if (options.json)
                (0, context_1.printJson)({ workflowId: handle.workflowId, ...result });
            else
                process.stdout.write(`\n${(0, render_1.renderResult)(handle.workflowId, result)}\n`);
            if (result.status !== 'succeeded')
                process.exitCode = 1;
        });
    });
}
async function start(client, config, plan, workflowId) {
    // With tracing on, this span opens the run's trace: the start, the run and every attempt join it.
    return (0, spans_1.inSpan)('teamrun start', { 'teamrun.plan': plan.name }, async (span) => {
        try {
            const handle = await (0, client_1.startTeamRun)(client, plan, { taskQueue: config.connection.taskQueue, workflowId });
            span.setAttribute(spans_1.ATTR.runId, handle.workflowId);
            return handle;
        }
        catch (err) {
            throw await (0, start_errors_1.startFailure)(err, client, plan);
        }
    });
}
/** A run on a queue nobody polls waits silently; say so rather than look stuck. */
async function warnWithoutWorker(client, config) {
    const { namespace, taskQueue } = config.connection;
    const described = await client.workflowService
        // An unspecified queue type means the workflow queue, the one every teamrun worker polls.
        .describeTaskQueue({ namespace, taskQueue: { name: taskQueue } })
        .catch(() => null);
    if (described && (described.pollers ?? []).length === 0) {
        process.stderr.write(`note: no worker polls task queue "${taskQueue}" yet; the run ` +
            `starts when one does (\`teamrun worker\` or \`teamrun dev\`)\n`);
    }
}
