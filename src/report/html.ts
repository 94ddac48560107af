import { usageTokens } from '../team/budget';
import { count, duration, usd } from '../format';
import { escapeXml as esc, stepChart } from './chart';
import { GRAPH_MAX_TASKS, STATUS_COLOURS, graphSvg, layoutTaskGraph } from './graph';
import type { AttemptRecord, ControlRecord, RunReport, TaskReport } from './model';

/** Tasks added while the run ran: how many, and each parent with the tasks it added. */
function spawnedSection(report: RunReport): string {
  const { added, tree } = report.spawned;
  if (added === 0) return '';
  const rows = tree.map(
    ({ parent, children }) =>
      `<li><code>${esc(parent)}</code> → ${children.map((c) => `<code>${esc(c)}</code>`).join(', ')}</li>`,
  );
  return `<section id="spawned" data-kind="tasks">
  <h2>Added while running</h2>
  <p>${esc(plural(added, 'task'))} added to the plan while it ran${
    tree.length ? '; the tasks that added them:' : ' (by people, not by tasks).'
  }</p>
  ${tree.length ? `<ul class="tree">${rows.join('\n')}</ul>` : ''}
</section>`;
}

/** Web UI links of a run and of one attempt (its ActivityTaskScheduled event), when the report knows the UI. */
export function webUiLinks(report: Pick<RunReport, 'webUi' | 'workflowId' | 'runIds'>) {
  const ui = report.webUi;
  const run = (runId?: string | null) =>
    ui &&
    `${ui.base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/` +
      `${encodeURIComponent(report.workflowId)}${runId ? `/${encodeURIComponent(runId)}/history` : ''}`;
  return {
    run: run(report.runIds[report.runIds.length - 1]),
    attempt: (a: AttemptRecord) =>
      ui && a.runId && a.scheduledEventId ? `${run(a.runId)}/events/${a.scheduledEventId}` : null,
  };
}

/**
 * The report as ONE self-contained HTML page: inline CSS, inline script, inline SVG, no network.
 * Sections carry `data-kind` (tasks / control / budget); the filter buttons show one kind or all.
 * The report's data is embedded as JSON too (`#teamrun-report`), for anyone who wants to script it.
 */
export function renderReportHtml(report: RunReport): string {
  const end = Math.max(report.closedAt ?? report.generatedAt, report.startedAt + 1);
  const at = (t: number) => `+${duration(Math.max(0, t - report.startedAt))}`;
  const attempts = report.tasks.reduce((n, t) => n + t.attempts.length, 0);
  const title = `teamrun report: ${report.workflowId}`;
  const links = webUiLinks(report);
  const age = report.closedAt
    ? `closed after ${esc(duration(report.closedAt - report.startedAt))}`
    : `open for ${esc(duration(report.generatedAt - report.startedAt))}`;
  const work = [
    plural(attempts, 'attempt'),
    plural(report.leases.length, 'lease lost', 'leases lost'),
    plural(report.control.length, 'control message'),
  ].join(' · ');
  const attemptRows = report.tasks
    .map((task) => task.attempts.map((a, i) => attemptRow(task, a, i === 0, at, links.attempt(a))).join('\n'))
    .join('\n');
  const generated = esc(new Date(report.generatedAt).toISOString());
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body data-filter="all">
<header>
  <h1>${esc(report.workflowId)}</h1>
  <p class="meta">
    <span class="state state-${esc(report.state.split(/[ :]/)[0])}">${esc(report.state)}</span>
    ${report.team ? `team <b>${esc(report.team)}</b> · ` : ''}started ${esc(new Date(report.startedAt).toISOString())} ·
    ${age} ·
    ${work}
    ${report.runIds.length > 1 ? ` · ${report.runIds.length} runs (continue-as-new)` : ''}
    ${links.run ? ` · <a class="web-ui" href="${esc(links.run)}">open in the Temporal Web UI</a>` : ''}
  </p>
  ${report.stats ? `<p class="meta">${statsLine(report.stats)}</p>` : ''}
  ${report.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('\n')}
  <nav class="filters" aria-label="Show">
    <button type="button" data-filter="all" aria-pressed="true">All</button>
    <button type="button" data-filter="tasks" aria-pressed="false">Tasks</button>
    <button type="button" data-filter="control" aria-pressed="false">Control</button>
    <button type="button" data-filter="budget" aria-pressed="false">Budget</button>
  </nav>
</header>
<main>
<section id="graph" data-kind="tasks">
  <h2>Task graph</h2>
  ${graphSection(report)}
</section>
<section id="timeline" data-kind="tasks">
  <h2>Timeline</h2>
  <div class="legend">${OUTCOMES.map((o) => `<span class="bar-sample o-${o}"></span>${o}`).join(' ')}
    <span class="bar-sample wait-sample"></span>waiting for a human
    <span class="mark-sample">◆</span>interruption <span class="mark-sample decision">✔</span>decision</div>
  <div class="gantt">
    ${report.tasks.map((task) => ganttRow(task, report, end)).join('\n')}
    ${axisRow(end - report.startedAt)}
  </div>
</section>
${spawnedSection(report)}
<section id="attempts" data-kind="tasks">
  <h2>Attempts</h2>
  <table>
    ${tableHead('task', 'attempt', 'activity', 'lease', 'holder', 'worker', 'start', 'end', 'took', 'outcome', 'usage')}
    <tbody>
    ${attemptRows}
    </tbody>
  </table>
</section>
<section id="leases" data-kind="control">
  <h2>Lease expiries and re-leases</h2>
  ${
    report.leases.length
      ? `<table>${tableHead('when', 'task', 'lost lease', 'worker', 're-leased as')}<tbody>
    ${report.leases
      .map(
        (l) =>
          `<tr class="lease"><td>${at(l.at)}</td><td>${esc(l.key)}</td><td>token ${l.fencingToken} ` +
          `<small>${esc(l.leaseId)}</small></td>` +
          `<td>${esc(l.worker ?? '?')}</td><td>` +
          `${l.next ? `token ${l.next.fencingToken} at ${at(l.next.at)}` : 'not re-leased'}</td></tr>`,
      )
      .join('\n')}</tbody></table>`
      : '<p class="empty">No lease expired.</p>'
  }
</section>
<section id="control" data-kind="control">
  <h2>Interruptions and other control</h2>
  ${
    report.control.length
      ? `<table>${tableHead('when', 'via', 'message', 'actor', 'what', 'verdict')}<tbody>
    ${report.control.map((c) => controlRow(c, at)).join('\n')}</tbody></table>`
      : '<p class="empty">No signals, updates or cancellations.</p>'
  }
</section>
<section id="adjudications" data-kind="control">
  <h2>Adjudications</h2>
  ${adjudicationTable(report, at)}
</section>
<section id="budget" data-kind="budget">
  <h2>Budget</h2>
  ${budgetSection(report, end)}
</section>
</main>
<footer>Generated ${generated} by <code>teamrun report</code> from the run's Temporal history${
    report.runIds.length ? ` (run ${report.runIds.map(esc).join(', ')})` : ''
  }.</footer>
<script type="application/json" id="teamrun-report">${JSON.stringify(report).replace(/</g, '\\u003c')}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `<thead>` with one `<th>` per name, on one line. */
const tableHead = (...names: string[]) => `<thead><tr>${names.map((n) => `<th>${n}</th>`).join('')}</tr></thead>`;

const OUTCOMES = [
  'succeeded',
  'failed',
  'lease-expired',
  'interrupted',
  'cancelled',
  'released',
  'timed-out',
  'running',
  'scheduled',
] as const;

function statsLine(s: NonNullable<RunReport['stats']>): string {
  return (
    `tasks: <b>${s.succeeded + s.failed + s.skipped}/${s.total}</b> done · ${s.succeeded} ` +
    `succeeded · ${s.failed} failed · ${s.skipped} skipped · ${s.adjudication} in adjudication`
  );
}

function ganttRow(task: TaskReport, report: RunReport, end: number): string {
  const span = end - report.startedAt;
  const pct = (t: number) =>
    (((Math.min(Math.max(t, report.startedAt), end) - report.startedAt) / span) * 100).toFixed(2);
  const bars = task.attempts
    .map((a) => {
      const from = a.startedAt ?? a.scheduledAt;
      const to = a.endedAt ?? end;
      const width = Math.max(0.6, Number(pct(to)) - Number(pct(from)));
      const tip =
        `${a.activityId} · ${a.holder}${a.worker ? ` @${a.worker}` : ''} ` +
        `· ${a.outcome}${a.detail ? `: ${a.detail}` : ''}`;
      return (
        `<span class="bar o-${a.outcome}" style="left:${pct(from)}%;width:${width.toFixed(2)}%" ` +
        `title="${esc(tip)}">${esc(`#${a.fencingToken}`)}</span>`
      );
    })
    .join('');
  const waits = (report.adjudications ?? [])
    .filter((a) => a.key === task.key)
    .map((a) => {
      const to = a.decision?.decidedAt ?? end;
      const width = Math.max(0.6, Number(pct(to)) - Number(pct(a.requestedAt)));
      const tip = a.decision
        ? `waited for a human ${duration(to - a.requestedAt)}: ${a.code} ` +
          `-> ${a.decision.decision} by ${a.decision.actor ?? '?'}`
        : `waiting for a human since +${duration(a.requestedAt - report.startedAt)}: ${a.code}`;
      return (
        `<span class="wait${a.decision ? '' : ' open'}" ` +
        `style="left:${pct(a.requestedAt)}%;width:${width.toFixed(2)}%" ` +
        `title="${esc(tip)}">${a.decision ? '' : 'waiting'}</span>`
      );
    })
    .join('');
  const marks = [
    ...report.control
      .filter((c) => c.name === 'interruptTask' && c.key === task.key)
      .map(
        (c) =>
          `<span class="mark" style="left:${pct(c.at)}%" ` +
          `title="${esc(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">◆</span>`,
      ),
    // The conversation: each message sent with the sendMessage update, on its recipient's row.
    ...report.control
      .filter((c) => c.name === 'sendMessage' && c.key === task.key)
      .map(
        (c) =>
          `<span class="mark message" style="left:${pct(c.at)}%" ` +
          `title="${esc(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">✉</span>`,
      ),
    ...(report.adjudications ?? [])
      .filter((a) => a.key === task.key && a.decision)
      .map(
        (a) =>
          `<span class="mark decision" style="left:${pct(a.decision!.decidedAt)}%" ` +
          `title="${esc(`${a.decision!.decision} by ${a.decision!.actor ?? '?'}`)}">✔</span>`,
      ),
  ].join('');
  return (
    `<div class="row" id="task-${esc(task.key)}" data-task="${esc(task.key)}"><div ` +
    `class="label" title="${esc(`${task.title} (${task.key})`)}">` +
    `<span class="title">${esc(task.title)}</span><small ` +
    `class="key">${task.title === task.key ? '' : `${esc(task.key)} · `}<span class="status ` +
    `s-${esc(task.status ?? 'unknown')}">${esc(task.status ?? '?')}</span></small></div>` +
    `<div class="track">${waits}${bars}${marks}</div></div>`
  );
}

/** Five ticks under the timeline, in time since the run started. */
function axisRow(span: number): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => `<span class="tick" style="left:${(f * 100).toFixed(0)}%">${esc(duration(f * span))}</span>`)
    .join('');
  return `<div class="row axis"><div class="label"></div><div class="track">${ticks}</div></div>`;
}

function attemptRow(
  task: TaskReport,
  a: AttemptRecord,
  firstOfTask: boolean,
  at: (t: number) => string,
  uiUrl: string | null,
): string {
  const took = a.startedAt !== null && a.endedAt !== null ? duration(a.endedAt - a.startedAt) : '';
  const usage = a.usage
    ? `${count(usageTokens(a.usage))} tok${a.usage.costUsd !== undefined ? ` · ${usd(a.usage.costUsd)}` : ''}`
    : '';
  const activity = uiUrl
    ? `<a class="web-ui" href="${esc(uiUrl)}" title="this attempt ` +
      `in the Temporal Web UI"><code>${esc(a.activityId)}</code></a>`
    : `<code>${esc(a.activityId)}</code>`;
  const links = a.links
    .map((l) => `<br><a class="task-link" href="${esc(l.url)}">${esc(l.label ?? l.url)}</a>`)
    .join('');
  const row =
    `<tr class="attempt${firstOfTask ? ' first' : ''}" data-activity-id="${esc(a.activityId)}">` +
    `<td>${firstOfTask ? `<b>${esc(task.key)}</b>` : ''}</td><td>#${a.attempt}</td><td>${activity}</td>` +
    `<td class="nowrap">token&nbsp;${a.fencingToken}</td><td>${esc(a.holder)}</td><td>${esc(a.worker ?? '')}</td>` +
    `<td class="nowrap">${a.startedAt === null ? `<i>sched. ${at(a.scheduledAt)}</i>` : at(a.startedAt)}` +
    `</td><td class="nowrap">${a.endedAt === null ? '' : at(a.endedAt)}</td>` +
    `<td class="nowrap">${took}</td><td><span class="outcome ` +
    `o-${a.outcome}">${a.outcome}</span>${a.detail ? `<br><small>${esc(a.detail)}</small>` : ''}${links}</td>` +
    `<td class="nowrap">${usage}</td></tr>`;
  return row + logsRow(a);
}

/** What the attempt printed, folded: the tail of stdout and stderr, with how much was cut. */
function logsRow(a: AttemptRecord): string {
  if (!a.logs) return '';
  const { stdout, stderr, stdoutBytes, stderrBytes } = a.logs;
  const stream = (name: string, text: string, total: number) => {
    if (!total && !text) return `<p class="empty">${name}: nothing</p>`;
    const cut =
      total > Buffer.byteLength(text)
        ? ` <small>(last ${bytes(Buffer.byteLength(text))} of ${bytes(total)})</small>`
        : '';
    return `<div class="stream"><b>${name}</b>${cut}<pre class="log ${name}">${esc(text)}</pre></div>`;
  };
  return (
    `<tr class="attempt-logs" data-activity-id="${esc(a.activityId)}"><td></td><td colspan="10"><details>` +
    `<summary>logs of ${esc(a.activityId)}: stdout ${bytes(stdoutBytes)}, stderr ${bytes(stderrBytes)}</summary>` +
    `${stream('stdout', stdout, stdoutBytes)}${stream('stderr', stderr, stderrBytes)}</details></td></tr>`
  );
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}

/** The dependency graph, laid out by dagre; each box links to its timeline row. */
function graphSection(report: RunReport): string {
  if (!report.tasks.length) return '<p class="empty">No tasks.</p>';
  if (report.tasks.length > GRAPH_MAX_TASKS) {
    return (
      `<p class="empty">${report.tasks.length} tasks: too many to draw here (at most ${GRAPH_MAX_TASKS}); ` +
      `<code>teamrun graph ${esc(report.workflowId)} --dot</code> prints it for Graphviz.</p>`
    );
  }
  const graph = layoutTaskGraph(report.tasks);
  const used = [...new Set(report.tasks.map((t) => t.status ?? 'unknown'))];
  const legend = used
    .map((status) => {
      const c = STATUS_COLOURS[status] ?? STATUS_COLOURS.unknown;
      return `<span class="node-sample" style="background:${c.fill};border-color:${c.stroke}"></span>${esc(status)}`;
    })
    .join(' ');
  return (
    `<div class="legend">${legend} <span class="hint">· arrows point from a ` +
    `dependency to what waits on it; click a task for its timeline row</span></div><div ` +
    `class="graph-box">${graphSvg(graph, (key) => `#task-${key}`)}</div>`
  );
}

function controlRow(c: ControlRecord, at: (t: number) => string): string {
  return (
    `<tr class="control" ` +
    `data-name="${esc(c.name)}"><td>${at(c.at)}</td><td>${c.via}</td><td><code>${esc(c.name)}</code></td>` +
    `<td>${esc(c.actor ?? '')}${c.identity ? ` <small>${esc(c.identity)}</small>` : ''}` +
    `</td><td>${esc(c.summary)}</td><td>${esc(c.verdict ?? '')}</td></tr>`
  );
}

function adjudicationTable(report: RunReport, at: (t: number) => string): string {
  if (report.adjudications === null) return '<p class="empty">Unknown: the run state could not be read.</p>';
  if (!report.adjudications.length) return '<p class="empty">No task needed adjudication.</p>';
  const rows = report.adjudications.map((a) => {
    const decision = a.decision
      ? `<b>${esc(a.decision.decision)}</b> by ${esc(a.decision.actor ?? '?')} ` +
        `at ${at(a.decision.decidedAt)}${a.decision.reason ? `: ${esc(a.decision.reason)}` : ''} ` +
        `<small>${esc(a.decision.decisionId)}</small>`
      : '<span class="pending">pending</span>';
    return (
      `<tr class="adjudication"><td>${esc(a.key)}</td><td>token ` +
      `${a.fencingToken}</td><td><code>${esc(a.code)}</code></td>` +
      `<td>${at(a.requestedAt)}</td><td>${esc(a.actor ?? '')}` +
      `</td><td>${esc(a.reason ?? '')}</td><td>${decision}</td></tr>`
    );
  });
  const head = tableHead('task', 'attempt', 'code', 'requested', 'by', 'reason', 'decision');
  return `<table>${head}<tbody>${rows.join('\n')}</tbody></table>`;
}

function budgetSection(report: RunReport, end: number): string {
  const { limits, used, points } = report.budget;
  const limit = (max: number | undefined, show: (n: number) => string) => (max === undefined ? 'unbounded' : show(max));
  // Dollars only when they mean something: a dollar limit, or dollars spent.
  const dollars = limits.maxUsd !== undefined || used.usd > 0;
  const charts = [
    ...(dollars
      ? [
          stepChart({
            title: 'Dollars',
            points,
            value: (p) => p.usd,
            format: usd,
            limit: limits.maxUsd,
            start: report.startedAt,
            end,
          }),
        ]
      : []),
    stepChart({
      title: 'Tokens',
      points,
      value: (p) => p.tokens,
      format: count,
      limit: limits.maxTokens,
      start: report.startedAt,
      end,
    }),
    stepChart({
      title: 'Attempts',
      points,
      value: (p) => p.attempts,
      format: count,
      limit: limits.maxTasks,
      start: report.startedAt,
      end,
    }),
  ];
  return (
    `<table class="budget"><thead><tr><th></th><th>used</th><th>limit</th></tr></thead><tbody>` +
    `<tr><td>attempts</td><td>${count(used.attempts)}</td><td>${limit(limits.maxTasks, count)}</td></tr>` +
    `<tr><td>tokens</td><td>${count(used.tokens)}</td><td>${limit(limits.maxTokens, count)}</td></tr>` +
    `<tr><td>dollars</td><td>${usd(used.usd)}</td><td>${limit(limits.maxUsd, usd)}</td></tr>` +
    `<tr><td>wall clock</td><td>${duration(end - report.startedAt)}` +
    `</td><td>${limit(limits.maxWallMs, duration)}</td></tr>` +
    `</tbody></table>` +
    (report.budget.stopped ? `<p class="note">Budget stopped the run: ${esc(report.budget.reason ?? '')}</p>` : '') +
    `<div class="charts">${charts.join('')}</div>` +
    `<p class="hint">An attempt counts when it starts; its tokens and dollars when it settles.</p>`
  );
}

const STYLE = `
:root { --fg:#1d2430; --muted:#5d6776; --line:#dde2ea; --bg:#fff; --soft:#f5f7fa;
  --ok:#2f9e55; --bad:#d64545; --lease:#e08a00; --int:#7a4fd6; --cancel:#8a94a6; --run:#2b7bd6; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
header, main, footer { padding: 0 24px; max-width: 1280px; margin: 0 auto; }
h1 { font-size: 20px; margin: 20px 0 4px; word-break: break-all; }
h2 { font-size: 16px; margin: 24px 0 8px; }
.meta { color: var(--muted); margin: 4px 0; }
.note { background: #fff7e0; border: 1px solid #f0d48a; padding: 6px 10px; border-radius: 6px; }
.state { display: inline-block; padding: 1px 8px; border-radius: 10px; background: var(--soft);
  border: 1px solid var(--line); color: var(--fg); font-weight: 600; }
.state-succeeded { background: #e3f5e9; border-color: #9fd8b2; }
.state-failed, .state-aborted, .state-workflow { background: #fbe5e5; border-color: #eeb0b0; }
.state-awaiting_adjudication, .state-unresolved, .state-budget_stopped { background: #fff0d6; border-color: #f0c77a; }
.filters { position: sticky; top: 0; background: var(--bg); padding: 10px 0; border-bottom: 1px solid var(--line);
  display: flex; gap: 6px; z-index: 2; }
.filters button { font: inherit; padding: 4px 14px; border-radius: 14px; border: 1px solid var(--line);
  background: var(--soft); cursor: pointer; }
.filters button[aria-pressed="true"] { background: var(--fg); color: #fff; border-color: var(--fg); }
body[data-filter="tasks"] section[data-kind]:not([data-kind="tasks"]),
body[data-filter="control"] section[data-kind]:not([data-kind="control"]),
body[data-filter="budget"] section[data-kind]:not([data-kind="budget"]) { display: none; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
tr.attempt.first td { border-top: 2px solid var(--line); }
small { color: var(--muted); }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
.empty, .hint { color: var(--muted); }
.pending { color: var(--lease); font-weight: 600; }
.legend { color: var(--muted); font-size: 12px; margin-bottom: 8px; }
.bar-sample { display: inline-block; width: 14px; height: 10px; border-radius: 2px; margin: 0 4px 0 10px;
  vertical-align: middle; }
.mark-sample { margin: 0 4px 0 10px; color: var(--int); }
.mark-sample.decision { color: var(--ok); }
.gantt { border: 1px solid var(--line); border-radius: 6px; padding: 6px 0; }
.row { display: flex; align-items: center; min-height: 26px; }
.row:nth-child(odd) { background: var(--soft); }
.label { width: 240px; flex: none; padding: 0 10px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.track { position: relative; flex: 1; height: 20px; margin-right: 14px; }
.bar { position: absolute; top: 2px; height: 16px; min-width: 14px; border-radius: 3px; color: #fff; font-size: 10px;
  line-height: 16px; padding-left: 3px; overflow: hidden; white-space: nowrap; }
.mark { position: absolute; top: 0; transform: translateX(-50%); color: var(--int); font-size: 14px;
  line-height: 20px; text-shadow: 0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff; }
.row.axis { background: none; min-height: 18px; }
.axis .tick { position: absolute; top: 0; transform: translateX(-50%); font-size: 11px; color: var(--muted);
  white-space: nowrap; }
.axis .tick:first-child { transform: none; }
.axis .tick:last-child { transform: translateX(-100%); }
.mark.decision { color: var(--ok); }
.o-succeeded { background: var(--ok); } .o-failed { background: var(--bad); }
.o-lease-expired { background: var(--lease); }
.o-interrupted { background: var(--int); } .o-cancelled, .o-released, .o-timed-out { background: var(--cancel); }
.o-running { background: var(--run); }
.o-scheduled { background: repeating-linear-gradient(45deg, #b7c6da, #b7c6da 4px, #d5deea 4px, #d5deea 8px); }
.outcome { color: #fff; padding: 0 6px; border-radius: 8px; font-size: 12px; }
.status { font-size: 11px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; margin-top: 12px; }
.chart { border: 1px solid var(--line); border-radius: 6px; background: var(--soft); }
.chart .series { fill: none; stroke: var(--run); stroke-width: 2; }
.chart .axis { stroke: var(--line); }
.chart .limit { stroke: var(--bad); stroke-dasharray: 4 3; }
.chart text { font-size: 10px; fill: var(--muted); }
.chart .chart-title { font-size: 12px; fill: var(--fg); font-weight: 600; }
table.budget { width: auto; }
footer { color: var(--muted); font-size: 12px; margin: 32px auto 24px; }
.nowrap { white-space: nowrap; }
.graph-box { display: inline-block; max-width: 100%; overflow-x: auto; border: 1px solid var(--line);
  border-radius: 6px; padding: 8px; background: var(--soft); }
.graph .edge { fill: none; stroke: #8a94a6; stroke-width: 1.5; }
.graph .node-title { font-size: 13px; font-weight: 600; fill: var(--fg); }
.graph .node-key { font-size: 11px; fill: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.graph a:hover rect, .graph a:focus rect { stroke-width: 3; }
.node-sample { display: inline-block; width: 14px; height: 10px; border: 2px solid; border-radius: 3px;
  margin: 0 4px 0 10px; vertical-align: middle; }
.row:target { outline: 2px solid var(--run); outline-offset: -2px; }
.label { line-height: 1.2; padding-top: 2px; padding-bottom: 2px; }
.label .title, .label .key { display: block; overflow: hidden; text-overflow: ellipsis; }
.label .key { font: 11px ui-monospace, SFMono-Regular, Menlo, monospace; }
.wait { position: absolute; top: 6px; height: 8px; border-radius: 4px;
  background: repeating-linear-gradient(90deg, #f0c77a, #f0c77a 6px, #fff0d6 6px, #fff0d6 10px);
  border: 1px solid #e08a00; font-size: 9px; line-height: 8px; color: #8a5a00; overflow: hidden; white-space: nowrap; }
.wait-sample { background: repeating-linear-gradient(90deg, #f0c77a, #f0c77a 6px, #fff0d6 6px, #fff0d6 10px);
  border: 1px solid #e08a00; }
tr.attempt-logs td { border-top: none; padding-top: 0; }
tr.attempt-logs summary { cursor: pointer; color: var(--muted); font-size: 12px; }
pre.log { background: #1d2430; color: #e6e9ef; padding: 8px 10px; border-radius: 6px; max-height: 320px;
  overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap;
  margin: 4px 0 8px; }
pre.log.stderr { color: #ffd4d4; }
a.web-ui { color: var(--run); }
`;

/** Filters work offline: they only toggle which sections show, and remember the choice in the URL fragment. */
const SCRIPT = `
(function () {
  var buttons = document.querySelectorAll('button[data-filter]');
  var kinds = ['all', 'tasks', 'control', 'budget'];
  function show(kind) {
    if (kinds.indexOf(kind) < 0) kind = 'all';
    document.body.setAttribute('data-filter', kind);
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', String(buttons[i].getAttribute('data-filter') === kind));
    }
  }
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (e) {
      var kind = e.currentTarget.getAttribute('data-filter');
      show(kind);
      if (location.hash !== '#' + kind) location.hash = kind;
    });
  }
  window.addEventListener('hashchange', function () { show(location.hash.slice(1)); });
  show(location.hash.slice(1));
})();
`;
