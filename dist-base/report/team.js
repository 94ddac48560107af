"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.renderTeamHtml = renderTeamHtml;
const format_1 = require("../format");
const chart_1 = require("./chart");
const graph_1 = require("./graph");
/**
 * Many runs at once, as one self-contained HTML page: a runs x tasks grid (a cell per task of
 * each run, coloured by its status, like Airflow's grid view), each cell linking to that task's
 * row in the run's own report, each run to its report and to the Web UI.
 */
function renderTeamHtml(options) {
    const { rows } = options;
    const columns = taskColumns(rows);
    const ui = options.webUi;
    const runUi = (id) => ui && `${ui.base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(id)}`;
    const header = `<tr><th>run</th><th>state</th><th>progress</th><th>budget used</th><th>started</th><th>took</th>` +
        columns
            .map((c) => `<th class="task-col" title="${(0, chart_1.escapeXml)(`${c.title} (${c.key})`)}"><span>${(0, chart_1.escapeXml)(c.title)}</span></th>`)
            .join('') +
        `</tr>`;
    const body = rows
        .map((row) => {
        const s = row.summary;
        const tasks = new Map((row.report?.tasks ?? []).map((t) => [t.key, t]));
        const cells = columns
            .map((c) => {
            const task = tasks.get(c.key);
            if (!task)
                return '<td class="cell none" title="not in this run"></td>';
            const status = task.status ?? 'unknown';
            const colour = graph_1.STATUS_COLOURS[status] ?? graph_1.STATUS_COLOURS.unknown;
            const tip = `${task.title} (${task.key}): ${status}, ${task.attempts.length} attempt(s)`;
            const box = `<span class="box" style="background:${colour.fill};border-color:${colour.stroke}"></span>`;
            const inner = row.href ? `<a href="${(0, chart_1.escapeXml)(`${row.href}#task-${task.key}`)}">${box}</a>` : box;
            return (`<td class="cell" data-task="${(0, chart_1.escapeXml)(task.key)}" ` +
                `data-status="${(0, chart_1.escapeXml)(status)}" title="${(0, chart_1.escapeXml)(tip)}">${inner}</td>`);
        })
            .join('');
        const name = row.href ? `<a href="${(0, chart_1.escapeXml)(row.href)}">${(0, chart_1.escapeXml)(s.workflowId)}</a>` : (0, chart_1.escapeXml)(s.workflowId);
        const web = runUi(s.workflowId);
        const took = (s.closedAt ?? options.generatedAt) - s.startedAt;
        const budget = s.budgetUsed
            ? `${(0, format_1.count)(s.budgetUsed.attempts)} att · ${(0, format_1.count)(s.budgetUsed.tokens)} tok · ${(0, format_1.usd)(s.budgetUsed.usd)}`
            : '?';
        return (`<tr class="run" data-workflow-id="${(0, chart_1.escapeXml)(s.workflowId)}"><td ` +
            `class="run-name">` +
            `${name}${web ? ` <a class="web-ui" href="${(0, chart_1.escapeXml)(web)}" title="in the Temporal Web UI">UI</a>` : ''}` +
            `${row.error ? `<br><small class="error">${(0, chart_1.escapeXml)(row.error)}</small>` : ''}</td>` +
            `<td><span ` +
            `class="state">${(0, chart_1.escapeXml)(s.state)}</span>` +
            `${s.pendingAdjudications ? ` <small>${s.pendingAdjudications} pending</small>` : ''}</td>` +
            `<td class="nowrap">${s.progress ? `${s.progress.done}/${s.progress.total}` : '?'}</td><td ` +
            `class="nowrap">${budget}</td>` +
            `<td class="nowrap">${(0, chart_1.escapeXml)(new Date(s.startedAt).toISOString().replace('T', ' ').slice(0, 19))}` +
            `</td><td class="nowrap">${(0, chart_1.escapeXml)((0, format_1.duration)(took))}${s.closedAt ? '' : ' (open)'}</td>` +
            `${cells}</tr>`);
    })
        .join('\n');
    const legend = Object.entries(graph_1.STATUS_COLOURS)
        .filter(([status]) => status !== 'unknown')
        .map(([status, c]) => `<span class="box" style="background:${c.fill};border-color:${c.stroke}"></span>${(0, chart_1.escapeXml)(status)}`)
        .join(' ');
    const counts = `${rows.length} run(s), newest first · ${columns.length} task(s)`;
    const when = (0, chart_1.escapeXml)(new Date(options.generatedAt).toISOString());
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${(0, chart_1.escapeXml)(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${(0, chart_1.escapeXml)(options.title)}</h1>
<p class="meta">${counts} · generated ${when} by <code>teamrun report --team</code></p>
<p class="legend">${legend}</p>
${rows.length
        ? `<div class="grid-box"><table class="grid"><thead>${header}</thead><tbody>${body}</tbody></table></div>`
        : '<p class="empty">No runs match.</p>'}
</body>
</html>
`;
}
/** Task columns in plan order of the newest run, then any other run's extra tasks. */
function taskColumns(rows) {
    const seen = new Map();
    for (const row of rows)
        for (const t of row.report?.tasks ?? [])
            if (!seen.has(t.key))
                seen.set(t.key, t.title);
    return [...seen.entries()].map(([key, title]) => ({ key, title }));
}
const STYLE = `
body { margin: 20px 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2430; }
h1 { font-size: 20px; margin: 0 0 4px; }
.meta, small { color: #5d6776; }
.legend { color: #5d6776; font-size: 12px; }
.box { display: inline-block; width: 18px; height: 18px; border: 2px solid; border-radius: 4px;
  vertical-align: middle; margin: 0 3px; }
.legend .box { width: 12px; height: 12px; margin-left: 10px; }
.grid-box { overflow-x: auto; }
table.grid { border-collapse: collapse; }
.grid th, .grid td { padding: 4px 8px; border-bottom: 1px solid #dde2ea; text-align: left; vertical-align: middle; }
.grid th { font-size: 12px; color: #5d6776; font-weight: 600; vertical-align: bottom; }
.grid th.task-col { height: 130px; width: 30px; padding: 0 2px; white-space: nowrap; }
.grid th.task-col span { display: inline-block; transform: rotate(-55deg); transform-origin: left bottom;
  width: 26px; position: relative; left: 14px; bottom: 4px; }
.grid td.cell { text-align: center; padding: 3px 2px; }
.grid td.cell a:hover .box { outline: 2px solid #2b7bd6; }
.grid tr.run:hover { background: #f5f7fa; }
.state { font-weight: 600; }
.nowrap { white-space: nowrap; }
.error { color: #d64545; }
a { color: #2b7bd6; }
a.web-ui { font-size: 11px; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
`;
