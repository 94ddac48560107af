"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerObserve = registerObserve;
exports.runsFilter = runsFilter;
exports.renderGraph = renderGraph;
const node_fs_1 = require("node:fs");
const runs_1 = require("../../client/runs");
const report_1 = require("../../report");
const graph_1 = require("../../report/graph");
const context_1 = require("../context");
const format_1 = require("../../format");
const options_1 = require("../options");
const plan_file_1 = require("../plan-file");
const agent_transcript_1 = require("../agent-transcript");
const run_view_1 = require("../run-view");
/** `graph`, `logs` and `runs`: what an operator looks at besides one run's status. */
function registerObserve(program) {
    program
        .command('graph <runOrPlan>')
        .description("the task graph of a run (with each task's status) or of a plan file: stages in the terminal, or DOT / SVG")
        .option('--dot', 'print Graphviz DOT (`dot -Tsvg` draws it)')
        .option('--svg', 'print an SVG laid out by dagre')
        .action(async (target, options, command) => {
        const { name, tasks } = (0, node_fs_1.existsSync)(target) ? planGraph(target) : await runGraph(command, target);
        process.stdout.write(`${renderGraph(name, tasks, options)}\n`);
    });
    program
        .command('logs <workflowId> <key>')
        .description("the tail of what a task's attempt printed (stdout, stderr) " +
        "and the links it printed; the latest attempt unless --attempt; an agent's transcript after it")
        .option('--attempt <n>', 'this attempt number of the task', options_1.intOption)
        .option('--all', 'every attempt of the task')
        .option('--json', 'print the attempts with their logs as JSON')
        .action(async (workflowId, key, options, command) => {
        await (0, context_1.withClient)(command, async (client) => {
            const report = await (0, report_1.loadRunAttempts)(client, workflowId);
            const task = report.tasks.find((t) => t.key === key);
            if (!task || !task.attempts.length) {
                const keys = report.tasks.filter((t) => t.attempts.length).map((t) => t.key);
                throw new context_1.CliError(`run ${workflowId} has no attempt of task ` +
                    `"${key}"${keys.length ? ` (tasks with attempts: ${keys.slice(0, 20).join(', ')})` : ''}`);
            }
            let attempts = task.attempts;
            if (options.attempt !== undefined) {
                attempts = attempts.filter((a) => a.attempt === options.attempt);
                if (!attempts.length) {
                    throw new context_1.CliError(`task "${key}" of run ${workflowId} has no attempt ${options.attempt} ` +
                        `(attempts: ${task.attempts.map((a) => a.attempt).join(', ')})`);
                }
            }
            else if (!options.all) {
                attempts = attempts.slice(-1);
            }
            const journal = await (0, agent_transcript_1.readTranscript)(client, workflowId, key);
            if (options.json)
                (0, context_1.printJson)(journal ? { attempts, transcript: journal } : attempts);
            else {
                const blocks = [...attempts.map(renderAttemptLogs), ...(journal ? [(0, agent_transcript_1.renderTranscript)(journal)] : [])];
                process.stdout.write(`${blocks.join('\n\n')}\n`);
            }
        });
    });
    program
        .command('runs')
        .description('recent team runs from visibility: team, state, progress, pending adjudications, budget used, start and duration')
        .option('--team <name>', 'only runs of this team (TeamName)')
        .option('--status <list>', `only runs in these states, comma-separated (${runs_1.RUN_STATUS_FILTERS.join(', ')})`)
        .option('--since <when>', 'only runs started since: 7d, 12h, 30m, or a date')
        .option('--limit <n>', 'at most this many runs, newest first', options_1.intOption, 50)
        .option('--json', 'print JSON')
        .action(async (options, command) => {
        await (0, context_1.withClient)(command, async (client) => {
            const runs = await (0, runs_1.listTeamRuns)(client, runsFilter(options));
            if (options.json)
                (0, context_1.printJson)(runs);
            else
                process.stdout.write(runs.length ? `${runsTable(runs)}\n` : 'no runs match\n');
        });
    });
}
/** The options `runs` and `report --team` share, as a filter. */
function runsFilter(options) {
    return {
        team: options.team,
        statuses: options.status ? options.status.split(',').filter(Boolean) : undefined,
        since: options.since ? (0, runs_1.parseSince)(options.since) : undefined,
        limit: options.limit,
    };
}
function planGraph(file) {
    const { plan } = (0, plan_file_1.readPlan)(file);
    return {
        name: plan.name,
        tasks: plan.tasks.map((t) => ({ key: t.key, title: t.title ?? t.key, status: null, dependsOn: t.dependsOn })),
    };
}
async function runGraph(command, workflowId) {
    return (0, context_1.withClient)(command, async (client) => {
        const reader = new run_view_1.RunReader(client, workflowId);
        const overview = await reader.overview();
        const tasks = [];
        const page = 2_000;
        for (let offset = 0;; offset += page) {
            const views = await reader.tasks({ offset, limit: page });
            tasks.push(...views.map((v) => ({ key: v.key, title: v.title, status: v.status, dependsOn: v.dependsOn })));
            if (views.length < page)
                break;
        }
        return { name: overview.name ?? workflowId, tasks };
    });
}
/** The graph as the options ask: DOT, SVG, or stages for the terminal (the default). */
function renderGraph(name, tasks, options) {
    if (options.dot)
        return (0, graph_1.graphDot)(tasks, name);
    if (options.svg)
        return (0, graph_1.graphSvg)((0, graph_1.layoutTaskGraph)(tasks));
    return `${name}: ${tasks.length} task(s)\n${(0, graph_1.graphText)(tasks)}`;
}
function renderAttemptLogs(a) {
    const head = `${a.activityId} · attempt ${a.attempt} ` +
        `· ${a.outcome}${a.detail ? ` (${a.detail})` : ''}${a.worker ? ` · ${a.worker}` : ''}`;
    const lines = [head];
    for (const link of a.links)
        lines.push(`link: ${link.label ? `${link.label} ` : ''}${link.url}`);
    if (!a.logs) {
        lines.push(a.outcome === 'running' || a.outcome === 'scheduled'
            ? '(still running: its logs are recorded when the attempt ends)'
            : '(no logs recorded for this attempt: its executor or worker kept none)');
        return lines.join('\n');
    }
    const stream = (name, text, total) => {
        const kept = Buffer.byteLength(text);
        const cut = total > kept ? ` (last ${(0, format_1.count)(kept)} of ${(0, format_1.count)(total)} bytes)` : ` (${(0, format_1.count)(total)} bytes)`;
        lines.push(`--- ${name}${cut} ---`);
        if (text)
            lines.push(text.replace(/\n$/, ''));
    };
    stream('stdout', a.logs.stdout, a.logs.stdoutBytes);
    stream('stderr', a.logs.stderr, a.logs.stderrBytes);
    return lines.join('\n');
}
function runsTable(runs) {
    const now = Date.now();
    return (0, format_1.table)(['run', 'team', 'state', 'progress', 'pending', 'budget used', 'started', 'took'], runs.map((r) => [
        r.workflowId,
        r.team ?? '-',
        r.state,
        r.progress ? `${r.progress.done}/${r.progress.total}` : '?',
        r.pendingAdjudications === null ? '-' : String(r.pendingAdjudications),
        r.budgetUsed
            ? `${(0, format_1.count)(r.budgetUsed.attempts)} att, ${(0, format_1.count)(r.budgetUsed.tokens)} ` +
                `tok, ${(0, format_1.usd)(r.budgetUsed.usd)}${r.budgetStopped ? ' (stopped)' : ''}`
            : '?',
        new Date(r.startedAt).toISOString().replace('T', ' ').slice(0, 19),
        `${(0, format_1.duration)((r.closedAt ?? now) - r.startedAt)}${r.closedAt ? '' : ' (open)'}`,
    ]));
}
