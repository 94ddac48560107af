"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.renderReportText = renderReportText;
const budget_1 = require("../team/budget");
const format_1 = require("../format");
/** The report as readable text, for the terminal: the same story as the HTML, without the chart. */
function renderReportText(report) {
    const at = (t) => `+${(0, format_1.duration)(Math.max(0, t - report.startedAt))}`;
    const lines = [];
    const attempts = report.tasks.reduce((n, t) => n + t.attempts.length, 0);
    const elapsed = (report.closedAt ?? report.generatedAt) - report.startedAt;
    lines.push(`run ${report.workflowId}${report.team ? ` (team ${report.team})` : ''}: ${report.state}`, `  started ${new Date(report.startedAt).toISOString()}, ` +
        `${report.closedAt ? `closed after ${(0, format_1.duration)(elapsed)}` : `open for ${(0, format_1.duration)(elapsed)}`}` +
        `${report.runIds.length > 1 ? `, ${report.runIds.length} runs (continue-as-new)` : ''}`);
    if (report.stats) {
        const s = report.stats;
        lines.push(`  tasks   ${s.succeeded + s.failed + s.skipped}/${s.total} done: ${s.succeeded} ` +
            `succeeded, ${s.failed} failed, ${s.skipped} skipped, ${s.adjudication} in adjudication`);
    }
    const n = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
    lines.push(`  work    ${n(attempts, 'attempt')}, ${n(report.leases.length, 'lease lost', 'leases lost')}` +
        `, ${n(report.control.length, 'control message')}`);
    for (const note of report.notes)
        lines.push(`  note    ${note}`);
    lines.push('', 'tasks');
    for (const task of report.tasks) {
        lines.push(`  ${task.key}${task.title !== task.key ? ` "${task.title}"` : ''}` +
            `: ${task.status ?? '?'}, ${task.attempts.length} attempt(s)`);
        for (const a of task.attempts)
            lines.push(`    ${attemptLine(a, at)}`);
        if (task.lastError && task.status !== 'succeeded')
            lines.push(`    last error: ${(0, format_1.oneLine)(task.lastError, 100)}`);
    }
    if (report.spawned.added > 0) {
        lines.push('', `added while running: ${n(report.spawned.added, 'task')}`);
        for (const { parent, children } of report.spawned.tree)
            lines.push(`  ${parent} -> ${children.join(', ')}`);
    }
    lines.push('', 'leases');
    if (!report.leases.length)
        lines.push('  no lease expired');
    for (const l of report.leases) {
        lines.push(`  ${at(l.at)} ${l.key} token ${l.fencingToken} lease lost${l.worker ? ` (worker ${l.worker})` : ''}; ` +
            (l.next ? `re-leased as token ${l.next.fencingToken} at ${at(l.next.at)}` : 'not re-leased'));
    }
    lines.push('', 'control');
    if (!report.control.length)
        lines.push('  no signals or updates');
    for (const c of report.control) {
        lines.push(`  ${at(c.at)} ${c.via} ${c.name}${c.actor ? ` by ${c.actor}` : ''}` +
            `: ${(0, format_1.oneLine)(c.summary, 90)}${c.verdict ? ` -> ${c.verdict}` : ''}`);
    }
    lines.push('', 'adjudications');
    if (report.adjudications === null)
        lines.push('  unknown (no run state)');
    else if (!report.adjudications.length)
        lines.push('  none');
    for (const a of report.adjudications ?? []) {
        const decided = a.decision
            ? `${a.decision.decision} by ${a.decision.actor ?? '?'} ` +
                `at ${at(a.decision.decidedAt)}${a.decision.reason ? ` (${a.decision.reason})` : ''}`
            : 'PENDING';
        lines.push(`  ${a.key} token ${a.fencingToken}: ${a.code} ` +
            `at ${at(a.requestedAt)}${a.actor ? ` by ${a.actor}` : ''}${a.reason ? `: ${(0, format_1.oneLine)(a.reason, 60)}` : ''}` +
            ` -> ${decided}`);
    }
    const { limits, used } = report.budget;
    const of = (value, max) => (max === null ? value : `${value} of ${max}`);
    lines.push('', 'budget', `  attempts ${of((0, format_1.count)(used.attempts), limits.maxTasks === undefined ? null : (0, format_1.count)(limits.maxTasks))}` +
        ` · tokens ${of((0, format_1.count)(used.tokens), limits.maxTokens === undefined ? null : (0, format_1.count)(limits.maxTokens))}` +
        ` · ${of((0, format_1.usd)(used.usd), limits.maxUsd === undefined ? null : (0, format_1.usd)(limits.maxUsd))}` +
        (report.budget.stopped ? ` · stopped: ${report.budget.reason}` : ''));
    // Every line holds text from the run (titles, reasons, actors): no control character reaches the terminal.
    return lines.map(format_1.printable).join('\n');
}
function attemptLine(a, at) {
    const span = a.startedAt === null
        ? `scheduled ${at(a.scheduledAt)}`
        : `${at(a.startedAt)} -> ${a.endedAt === null ? 'now' : at(a.endedAt)}`;
    const took = a.startedAt !== null && a.endedAt !== null ? ` (${(0, format_1.duration)(a.endedAt - a.startedAt)})` : '';
    const usage = a.usage
        ? ` · ${(0, format_1.count)((0, budget_1.usageTokens)(a.usage))} tokens${a.usage.costUsd !== undefined ? ` ${(0, format_1.usd)(a.usage.costUsd)}` : ''}`
        : '';
    return (`#${a.attempt} ${a.activityId} ${a.holder}${a.worker ? ` @${a.worker}` : ''} ${span}${took}: ${a.outcome}` +
        `${a.detail ? ` (${(0, format_1.oneLine)(a.detail, 80)})` : ''}${usage}`);
}
