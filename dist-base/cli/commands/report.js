"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerReport = registerReport;
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const runs_1 = require("../../client/runs");
const report_1 = require("../../report");
const team_1 = require("../../report/team");
const context_1 = require("../context");
const options_1 = require("../options");
const web_ui_1 = require("../web-ui");
const observe_1 = require("./observe");
function registerReport(program) {
    program
        .command('report [workflowId]')
        .description("a run's story from its history: the task graph, every attempt per task with " +
        'its logs, lease expiries, interruptions, adjudications, budget over time; ' +
        "with --team, one page with a runs x tasks grid linking to each run's report")
        .option('--html <file>', 'write one self-contained HTML page (graph, timeline, filters, budget chart; opens offline)')
        .option('--json', 'print the report data as JSON')
        .option('--team <name>', 'many runs: every recent run of this team in one grid (needs --html)')
        .option('--since <when>', 'with --team: runs started since (7d, 12h, a date); default 7d')
        .option('--status <list>', 'with --team: only runs in these states, comma-separated')
        .option('--limit <n>', 'with --team: at most this many runs, newest first', options_1.intOption, 50)
        .option('--web-ui <url>', "base URL of the Temporal Web UI for links (default: the local dev server's, when the address is local)")
        .action(async (workflowId, options, command) => {
        await (0, context_1.withClient)(command, async (client, config) => {
            const webUi = options.webUi ?? (0, web_ui_1.localWebUi)(config);
            if (options.team !== undefined) {
                if (!options.html)
                    throw new context_1.CliError('report --team writes HTML: give --html <file>');
                await teamReport(client, options, options.html, webUi);
                return;
            }
            if (!workflowId)
                throw new context_1.CliError('report: give a workflow id, or --team <name> for many runs');
            const report = await (0, report_1.loadRunReport)(client, workflowId, Date.now(), { webUi });
            if (options.html) {
                const file = options.html;
                const page = (0, report_1.renderReportHtml)(report);
                (0, context_1.userFile)(() => (0, node_fs_1.writeFileSync)(file, page));
                const attempts = report.tasks.reduce((n, t) => n + t.attempts.length, 0);
                const messages = report.control.length;
                const counts = `${report.tasks.length} tasks, ${attempts} attempts, ${messages} control messages`;
                process.stdout.write(`wrote ${node_path_1.default.resolve(file)}: ${counts}\n`);
            }
            else if (options.json) {
                (0, context_1.printJson)(report);
            }
            else {
                process.stdout.write(`${(0, report_1.renderReportText)(report)}\n`);
            }
        });
    });
}
/** Writes each run's report beside the team page (in `<page>-runs/`) and the grid that links them. */
async function teamReport(client, options, file, webUi) {
    const runs = await (0, runs_1.listTeamRuns)(client, (0, observe_1.runsFilter)({ ...options, since: options.since ?? '7d' }));
    const dirName = `${node_path_1.default.basename(file, node_path_1.default.extname(file))}-runs`;
    const dir = node_path_1.default.join(node_path_1.default.dirname(file), dirName);
    (0, context_1.userFile)(() => (0, node_fs_1.mkdirSync)(dir, { recursive: true }));
    const rows = [];
    for (const summary of runs) {
        try {
            const report = await (0, report_1.loadRunReport)(client, summary.workflowId, Date.now(), { webUi });
            const name = `${summary.workflowId.replace(/[^A-Za-z0-9._-]/g, '_')}.html`;
            (0, node_fs_1.writeFileSync)(node_path_1.default.join(dir, name), (0, report_1.renderReportHtml)(report));
            rows.push({ summary, report, href: `${encodeURIComponent(dirName)}/${encodeURIComponent(name)}` });
        }
        catch (err) {
            rows.push({ summary, report: null, href: null, error: err.message });
        }
    }
    const namespace = client.options.namespace;
    const title = `teamrun: team ${options.team}${options.since ? ` since ${options.since}` : ' (last 7 days)'}`;
    const links = webUi ? { base: webUi.replace(/\/+$/, ''), namespace } : null;
    const page = (0, team_1.renderTeamHtml)({ title, rows, generatedAt: Date.now(), webUi: links });
    (0, context_1.userFile)(() => (0, node_fs_1.writeFileSync)(file, page));
    process.stdout.write(`wrote ${node_path_1.default.resolve(file)}: ${rows.length} run(s) of team ${options.team}, each report in ${node_path_1.default.resolve(dir)}\n`);
}
