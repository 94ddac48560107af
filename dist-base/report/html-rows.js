"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ganttRow = ganttRow;
exports.axisRow = axisRow;
exports.attemptRow = attemptRow;
exports.logsRow = logsRow;
/**
 * The run report's timeline rows (one bar per attempt, with its ticks) and attempt rows (with their
 * folded logs), for html.ts's page.
 */
const budget_1 = require("../team/budget");
const format_1 = require("../format");
const chart_1 = require("./chart");
function ganttRow(task, report, end) {
    const span = end - report.startedAt;
    const pct = (t) => (((Math.min(Math.max(t, report.startedAt), end) - report.startedAt) / span) * 100).toFixed(2);
    const bars = task.attempts
        .map((a) => {
        const from = a.startedAt ?? a.scheduledAt;
        const to = a.endedAt ?? end;
        const width = Math.max(0.6, Number(pct(to)) - Number(pct(from)));
        const tip = `${a.activityId} · ${a.holder}${a.worker ? ` @${a.worker}` : ''} ` +
            `· ${a.outcome}${a.detail ? `: ${a.detail}` : ''}`;
        return (`<span class="bar sys o-${a.outcome}" style="left:${pct(from)}%;width:${width.toFixed(2)}%" ` +
            `title="${(0, chart_1.escapeXml)(tip)}">${(0, chart_1.escapeXml)(`#${a.fencingToken}`)}</span>`);
    })
        .join('');
    const waits = (report.adjudications ?? [])
        .filter((a) => a.key === task.key)
        .map((a) => {
        const to = a.decision?.decidedAt ?? end;
        const width = Math.max(0.6, Number(pct(to)) - Number(pct(a.requestedAt)));
        const tip = a.decision
            ? `waited for a human ${(0, format_1.duration)(to - a.requestedAt)}: ${a.code} ` +
                `-> ${a.decision.decision} by ${a.decision.actor ?? '?'}`
            : `waiting for a human since +${(0, format_1.duration)(a.requestedAt - report.startedAt)}: ${a.code}`;
        return (`<span class="wait sys${a.decision ? '' : ' open'}" ` +
            `style="left:${pct(a.requestedAt)}%;width:${width.toFixed(2)}%" ` +
            `title="${(0, chart_1.escapeXml)(tip)}">${a.decision ? '' : 'waiting'}</span>`);
    })
        .join('');
    const marks = [
        ...report.control
            .filter((c) => c.name === 'interruptTask' && c.key === task.key)
            .map((c) => `<span class="mark sys" style="left:${pct(c.at)}%" ` +
            `title="${(0, chart_1.escapeXml)(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">◆</span>`),
        // The conversation: each message sent with the sendMessage update, on its recipient's row.
        ...report.control
            .filter((c) => c.name === 'sendMessage' && c.key === task.key)
            .map((c) => `<span class="mark sys message" style="left:${pct(c.at)}%" ` +
            `title="${(0, chart_1.escapeXml)(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">✉</span>`),
        ...(report.adjudications ?? [])
            .filter((a) => a.key === task.key && a.decision)
            .map((a) => `<span class="mark sys decision" style="left:${pct(a.decision.decidedAt)}%" ` +
            `title="${(0, chart_1.escapeXml)(`${a.decision.decision} by ${a.decision.actor ?? '?'}`)}">✔</span>`),
        // A person's guidance to an agent: the run's step, like an interruption.
        ...report.control
            .filter((c) => c.name === 'steerTask' && c.key === task.key)
            .map((c) => `<span class="mark sys steer" style="left:${pct(c.at)}%" ` +
            `title="${(0, chart_1.escapeXml)(`${c.summary}${c.verdict ? ` -> ${c.verdict}` : ''}`)}">✎</span>`),
        // The agent's own steps: each model call and each tool call, filtered apart from the run's.
        ...report.steps
            .filter((s) => s.key === task.key)
            .map((s) => `<span class="step step-${s.kind}${s.ok ? '' : ' failed'}" style="left:${pct(s.at)}%" ` +
            `title="${(0, chart_1.escapeXml)(`${s.summary} (attempt token ${s.fencingToken})`)}">${s.kind === 'model' ? '●' : '▲'}</span>`),
    ].join('');
    return (`<div class="row" id="task-${(0, chart_1.escapeXml)(task.key)}" data-task="${(0, chart_1.escapeXml)(task.key)}"><div ` +
        `class="label" title="${(0, chart_1.escapeXml)(`${task.title} (${task.key})`)}">` +
        `<span class="title">${(0, chart_1.escapeXml)(task.title)}</span><small ` +
        `class="key">${task.title === task.key ? '' : `${(0, chart_1.escapeXml)(task.key)} · `}<span class="status ` +
        `s-${(0, chart_1.escapeXml)(task.status ?? 'unknown')}">${(0, chart_1.escapeXml)(task.status ?? '?')}</span></small></div>` +
        `<div class="track">${waits}${bars}${marks}</div></div>`);
}
/** Five ticks under the timeline, in time since the run started. */
function axisRow(span) {
    const ticks = [0, 0.25, 0.5, 0.75, 1]
        .map((f) => `<span class="tick" style="left:${(f * 100).toFixed(0)}%">${(0, chart_1.escapeXml)((0, format_1.duration)(f * span))}</span>`)
        .join('');
    return `<div class="row axis"><div class="label"></div><div class="track">${ticks}</div></div>`;
}
function attemptRow(task, a, firstOfTask, at, uiUrl) {
    const took = a.startedAt !== null && a.endedAt !== null ? (0, format_1.duration)(a.endedAt - a.startedAt) : '';
    const usage = a.usage
        ? `${(0, format_1.count)((0, budget_1.usageTokens)(a.usage))} tok${a.usage.costUsd !== undefined ? ` · ${(0, format_1.usd)(a.usage.costUsd)}` : ''}`
        : '';
    const activity = uiUrl
        ? `<a class="web-ui" href="${(0, chart_1.escapeXml)(uiUrl)}" title="this attempt ` +
            `in the Temporal Web UI"><code>${(0, chart_1.escapeXml)(a.activityId)}</code></a>`
        : `<code>${(0, chart_1.escapeXml)(a.activityId)}</code>`;
    const links = a.links
        .map((l) => `<br><a class="task-link" href="${(0, chart_1.escapeXml)(l.url)}">${(0, chart_1.escapeXml)(l.label ?? l.url)}</a>`)
        .join('');
    const row = `<tr class="attempt${firstOfTask ? ' first' : ''}" data-activity-id="${(0, chart_1.escapeXml)(a.activityId)}">` +
        `<td>${firstOfTask ? `<b>${(0, chart_1.escapeXml)(task.key)}</b>` : ''}</td><td>#${a.attempt}</td><td>${activity}</td>` +
        `<td class="nowrap">token&nbsp;${a.fencingToken}</td><td>${(0, chart_1.escapeXml)(a.holder)}</td><td>${(0, chart_1.escapeXml)(a.worker ?? '')}</td>` +
        `<td class="nowrap">${a.startedAt === null ? `<i>sched. ${at(a.scheduledAt)}</i>` : at(a.startedAt)}` +
        `</td><td class="nowrap">${a.endedAt === null ? '' : at(a.endedAt)}</td>` +
        `<td class="nowrap">${took}</td><td><span class="outcome ` +
        `o-${a.outcome}">${a.outcome}</span>${a.detail ? `<br><small>${(0, chart_1.escapeXml)(a.detail)}</small>` : ''}${links}</td>` +
        `<td class="nowrap">${usage}</td></tr>`;
    return row + logsRow(a);
}
/** What the attempt printed, folded: the tail of stdout and stderr, with how much was cut. */
function logsRow(a) {
    if (!a.logs)
        return '';
    const { stdout, stderr, stdoutBytes, stderrBytes } = a.logs;
    const stream = (name, text, total) => {
        if (!total && !text)
            return `<p class="empty">${name}: nothing</p>`;
        const cut = total > Buffer.byteLength(text)
            ? ` <small>(last ${bytes(Buffer.byteLength(text))} of ${bytes(total)})</small>`
            : '';
        return `<div class="stream"><b>${name}</b>${cut}<pre class="log ${name}">${(0, chart_1.escapeXml)(text)}</pre></div>`;
    };
    return (`<tr class="attempt-logs" data-activity-id="${(0, chart_1.escapeXml)(a.activityId)}"><td></td><td colspan="10"><details>` +
        `<summary>logs of ${(0, chart_1.escapeXml)(a.activityId)}: stdout ${bytes(stdoutBytes)}, stderr ${bytes(stderrBytes)}</summary>` +
        `${stream('stdout', stdout, stdoutBytes)}${stream('stderr', stderr, stderrBytes)}</details></td></tr>`);
}
function bytes(n) {
    return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}
