import type { RunSummary } from '../client/runs';
import { count, duration, usd } from '../format';
import { escapeXml as esc } from './chart';
import { STATUS_COLOURS } from './graph';
import type { RunReport } from './model';

/** One row of the grid: a run, its own report's file (relative to the page), and its tasks. */
export interface TeamRunRow {
  summary: RunSummary;
  report: RunReport | null;
  /** The run's report page, relative to the team page; null when it could not be written. */
  href: string | null;
  error?: string;
}

/**
 * Many runs at once, as one self-contained HTML page: a runs x tasks grid (a cell per task of
 * each run, coloured by its status, like Airflow's grid view), each cell linking to that task's
 * row in the run's own report, each run to its report and to the Web UI.
 */
export function renderTeamHtml(options: {
  title: string;
  rows: TeamRunRow[];
  generatedAt: number;
  webUi?: { base: string; namespace: string } | null;
}): string {
  const { rows } = options;
  const columns = taskColumns(rows);
  const ui = options.webUi;
  const runUi = (id: string) =>
    ui && `${ui.base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(id)}`;
  const header =
    `<tr><th>run</th><th>state</th><th>progress</th><th>budget used</th><th>started</th><th>took</th>` +
    columns
      .map((c) => `<th class="task-col" title="${esc(`${c.title} (${c.key})`)}"><span>${esc(c.title)}</span></th>`)
      .join('') +
    `</tr>`;
  const body = rows
    .map((row) => {
      const s = row.summary;
      const tasks = new Map((row.report?.tasks ?? []).map((t) => [t.key, t]));
      const cells = columns
        .map((c) => {
          const task = tasks.get(c.key);
          if (!task) return '<td class="cell none" title="not in this run"></td>';
          const status = task.status ?? 'unknown';
          const colour = STATUS_COLOURS[status] ?? STATUS_COLOURS.unknown;
          const tip = `${task.title} (${task.key}): ${status}, ${task.attempts.length} attempt(s)`;
          const box = `<span class="box" style="background:${colour.fill};border-color:${colour.stroke}"></span>`;
          const inner = row.href ? `<a href="${esc(`${row.href}#task-${task.key}`)}">${box}</a>` : box;
          return (
            `<td class="cell" data-task="${esc(task.key)}" ` +
            `data-status="${esc(status)}" title="${esc(tip)}">${inner}</td>`
          );
        })
        .join('');
      const name = row.href ? `<a href="${esc(row.href)}">${esc(s.workflowId)}</a>` : esc(s.workflowId);
      const web = runUi(s.workflowId);
      const took = (s.closedAt ?? options.generatedAt) - s.startedAt;
      const budget = s.budgetUsed
        ? `${count(s.budgetUsed.attempts)} att · ${count(s.budgetUsed.tokens)} tok · ${usd(s.budgetUsed.usd)}`
        : '?';
      return (
        `<tr class="run" data-workflow-id="${esc(s.workflowId)}"><td ` +
        `class="run-name">` +
        `${name}${web ? ` <a class="web-ui" href="${esc(web)}" title="in the Temporal Web UI">UI</a>` : ''}` +
        `${row.error ? `<br><small class="error">${esc(row.error)}</small>` : ''}</td>` +
        `<td><span ` +
        `class="state">${esc(s.state)}</span>` +
        `${s.pendingAdjudications ? ` <small>${s.pendingAdjudications} pending</small>` : ''}</td>` +
        `<td class="nowrap">${s.progress ? `${s.progress.done}/${s.progress.total}` : '?'}</td><td ` +
        `class="nowrap">${budget}</td>` +
        `<td class="nowrap">${esc(new Date(s.startedAt).toISOString().replace('T', ' ').slice(0, 19))}` +
        `</td><td class="nowrap">${esc(duration(took))}${s.closedAt ? '' : ' (open)'}</td>` +
        `${cells}</tr>`
      );
    })
    .join('\n');
  const legend = Object.entries(STATUS_COLOURS)
    .filter(([status]) => status !== 'unknown')
    .map(
      ([status, c]) => `<span class="box" style="background:${c.fill};border-color:${c.stroke}"></span>${esc(status)}`,
    )
    .join(' ');
  const counts = `${rows.length} run(s), newest first · ${columns.length} task(s)`;
  const when = esc(new Date(options.generatedAt).toISOString());
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${esc(options.title)}</h1>
<p class="meta">${counts} · generated ${when} by <code>teamrun report --team</code></p>
<p class="legend">${legend}</p>
${
  rows.length
    ? `<div class="grid-box"><table class="grid"><thead>${header}</thead><tbody>${body}</tbody></table></div>`
    : '<p class="empty">No runs match.</p>'
}
</body>
</html>
`;
}

/** Task columns in plan order of the newest run, then any other run's extra tasks. */
function taskColumns(rows: TeamRunRow[]): Array<{ key: string; title: string }> {
  const seen = new Map<string, string>();
  for (const row of rows) for (const t of row.report?.tasks ?? []) if (!seen.has(t.key)) seen.set(t.key, t.title);
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
