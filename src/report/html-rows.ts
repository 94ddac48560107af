/**
 * The run report's timeline rows (one bar per attempt, with its ticks) and attempt rows (with their
 * folded logs), for html.ts's page.
 */
import { outcomeLine } from '../team/outcome';
import { usageTokens } from '../team/budget';
import { count, duration, usd } from '../format';
import { escapeXml as esc } from './chart';
import type { AttemptRecord, RunReport, TaskReport } from './model';

export function ganttRow(task: TaskReport, report: RunReport, end: number): string {
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
        `<span class="bar sys o-${a.outcome}" style="left:${pct(from)}%;width:${width.toFixed(2)}%" ` +
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
        `<span class="wait sys${a.decision ? '' : ' open'}" ` +
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
          `<span class="mark sys" style="left:${pct(c.at)}%" ` +
          `title="${esc(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">◆</span>`,
      ),
    // The conversation: each message sent with the sendMessage update, on its recipient's row.
    ...report.control
      .filter((c) => c.name === 'sendMessage' && c.key === task.key)
      .map(
        (c) =>
          `<span class="mark sys message" style="left:${pct(c.at)}%" ` +
          `title="${esc(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">✉</span>`,
      ),
    ...(report.adjudications ?? [])
      .filter((a) => a.key === task.key && a.decision)
      .map(
        (a) =>
          `<span class="mark sys decision" style="left:${pct(a.decision!.decidedAt)}%" ` +
          `title="${esc(`${a.decision!.decision} by ${a.decision!.actor ?? '?'}`)}">✔</span>`,
      ),
    // A person's guidance to an agent: the run's step, like an interruption.
    ...report.control
      .filter((c) => c.name === 'steerTask' && c.key === task.key)
      .map(
        (c) =>
          `<span class="mark sys steer" style="left:${pct(c.at)}%" ` +
          `title="${esc(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">✎</span>`,
      ),
    // The agent's own steps: each model call and each tool call, filtered apart from the run's.
    ...report.steps
      .filter((s) => s.key === task.key)
      .map(
        (s) =>
          `<span class="step step-${s.kind}${s.ok ? '' : ' failed'}" style="left:${pct(s.at)}%" ` +
          `title="${esc(`${s.summary} (attempt token ${s.fencingToken})`)}">${s.kind === 'model' ? '●' : '▲'}</span>`,
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
export function axisRow(span: number): string {
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => `<span class="tick" style="left:${(f * 100).toFixed(0)}%">${esc(duration(f * span))}</span>`)
    .join('');
  return `<div class="row axis"><div class="label"></div><div class="track">${ticks}</div></div>`;
}

export function attemptRow(
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
    `<td>${firstOfTask ? `<b>${esc(task.key)}</b>${outcomeCell(task)}` : ''}</td>` +
    `<td>#${a.attempt}</td><td>${activity}</td>` +
    `<td class="nowrap">token&nbsp;${a.fencingToken}</td><td>${esc(a.holder)}</td><td>${esc(a.worker ?? '')}</td>` +
    `<td class="nowrap">${a.startedAt === null ? `<i>sched. ${at(a.scheduledAt)}</i>` : at(a.startedAt)}` +
    `</td><td class="nowrap">${a.endedAt === null ? '' : at(a.endedAt)}</td>` +
    `<td class="nowrap">${took}</td><td><span class="outcome ` +
    `o-${a.outcome}">${a.outcome}</span>${a.detail ? `<br><small>${esc(a.detail)}</small>` : ''}${links}</td>` +
    `<td class="nowrap">${usage}</td></tr>`;
  return row + logsRow(a);
}

/** A task's declared outcome under its key: `mock` stands out, its artifacts and criteria listed. */
function outcomeCell(task: TaskReport): string {
  const { outcome } = task;
  if (!outcome) return '';
  const artifacts = (outcome.artifacts ?? []).map((a) => `<br><code class="artifact">${esc(a)}</code>`).join('');
  return (
    `<br><small class="task-outcome${outcome.integration ? ` i-${outcome.integration}` : ''}">` +
    `${esc(outcomeLine(outcome))}</small>${artifacts}`
  );
}

/** What the attempt printed, folded: the tail of stdout and stderr, with how much was cut. */
export function logsRow(a: AttemptRecord): string {
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
