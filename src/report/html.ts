import { count, duration, usd } from '../format';
import { escapeXml as esc, stepChart } from './chart';
import { messageEdges } from './control-records';
import { GRAPH_MAX_TASKS, STATUS_COLOURS, graphSvg, layoutTaskGraph } from './graph';
import { STYLE, SCRIPT } from './html-assets';
import { attemptRow, axisRow, ganttRow } from './html-rows';
import type { AttemptRecord, ControlRecord, RunReport } from './model';

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
 * The timeline's own buttons show one kind of step (model calls, tool calls, the run's) or all.
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
<section id="timeline" data-kind="tasks" data-steps="all">
  <h2>Timeline</h2>
  ${stepFilters(report)}
  <div class="legend">${OUTCOMES.map((o) => `<span class="bar-sample o-${o}"></span>${o}`).join(' ')}
    <span class="bar-sample wait-sample"></span>waiting for a human
    <span class="mark-sample">◆</span>interruption <span class="mark-sample decision">✔</span>decision
    ${report.steps.length ? STEP_LEGEND : ''}</div>
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

const STEP_LEGEND =
  '<span class="mark-sample steer">✎</span>steer <span class="step-sample step-model">●</span>model call ' +
  '<span class="step-sample step-tool">▲</span>tool call';

/**
 * Which steps the timeline shows: all, an agent's model calls, its tool calls, or the run's own
 * (system) steps: attempts, waits, interruptions, messages, steers and decisions.
 */
function stepFilters(report: RunReport): string {
  const models = report.steps.filter((s) => s.kind === 'model').length;
  const tools = report.steps.length - models;
  const button = (kind: string, label: string) =>
    `<button type="button" data-steps="${kind}" aria-pressed="${kind === 'all'}">${label}</button>`;
  return (
    `<nav class="filters steps" aria-label="Steps">${button('all', 'Every step')}` +
    `${button('model', `Model (${models})`)}${button('tools', `Tools (${tools})`)}` +
    `${button('system', 'System')}</nav>`
  );
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

/** The dependency graph, laid out by dagre; each box links to its timeline row. */
function graphSection(report: RunReport): string {
  if (!report.tasks.length) return '<p class="empty">No tasks.</p>';
  if (report.tasks.length > GRAPH_MAX_TASKS) {
    return (
      `<p class="empty">${report.tasks.length} tasks: too many to draw here (at most ${GRAPH_MAX_TASKS}); ` +
      `<code>teamrun graph ${esc(report.workflowId)} --dot</code> prints it for Graphviz.</p>`
    );
  }
  const graph = layoutTaskGraph(report.tasks, messageEdges(report.control));
  const used = [...new Set(report.tasks.map((t) => t.status ?? 'unknown'))];
  const legend = used
    .map((status) => {
      const c = STATUS_COLOURS[status] ?? STATUS_COLOURS.unknown;
      return `<span class="node-sample" style="background:${c.fill};border-color:${c.stroke}"></span>${esc(status)}`;
    })
    .join(' ');
  return (
    `<div class="legend">${legend} <span class="hint">· arrows point from a ` +
    `dependency to what waits on it; dashed: from the task that added it; dotted blue: a message, from its ` +
    `sender; click a task for its timeline row</span></div><div ` +
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
