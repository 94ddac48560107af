"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.statsLine = statsLine;
exports.budgetTable = budgetTable;
exports.tasksTable = tasksTable;
exports.adjudicationsTable = adjudicationsTable;
exports.renderResult = renderResult;
exports.renderOverview = renderOverview;
const format_1 = require("../format");
/** Above this many tasks a summary lists only the ones that did not succeed. */
const FULL_TABLE_MAX = 40;
function statsLine(stats) {
    const settled = stats.succeeded + stats.failed + stats.skipped;
    const parts = [
        `${settled}/${stats.total} done`,
        `${stats.succeeded} succeeded`,
        `${stats.failed} failed`,
        `${stats.skipped} skipped`,
        `${stats.adjudication} in adjudication`,
    ];
    if ('running' in stats)
        parts.push(`${stats.running} running`, `${stats.pending} pending`);
    return parts.join(' · ');
}
/** Budget as used / reserved / limit, one row per dimension. */
function budgetTable(budget) {
    const { limits, used, reserved } = budget;
    const limit = (max, show) => (max === undefined ? 'unbounded' : show(max));
    return (0, format_1.table)(['', 'used', 'reserved', 'limit'], [
        ['tasks', (0, format_1.count)(used.tasks), '-', limit(limits.maxTasks, format_1.count)],
        ['tokens', (0, format_1.count)(used.tokens), (0, format_1.count)(reserved.tokens), limit(limits.maxTokens, format_1.count)],
        ['usd', (0, format_1.usd)(used.usd), (0, format_1.usd)(reserved.usd), limit(limits.maxUsd, format_1.usd)],
        ['wall', (0, format_1.duration)(used.wallMs), '-', limit(limits.maxWallMs, format_1.duration)],
    ]);
}
function taskNote(task) {
    if (task.lastError && task.status !== 'succeeded')
        return task.lastError;
    if (task.skipReason)
        return task.skipReason;
    if (task.output !== undefined)
        return `output ${JSON.stringify(task.output)}`;
    return '';
}
function tasksTable(tasks, noteWidth = 70) {
    return (0, format_1.table)(['KEY', 'STATUS', 'ATTEMPTS', 'TOKEN', 'HOLDER', 'NOTE'], tasks.map((t) => [
        t.key,
        t.status,
        String(t.attempts),
        String(t.fencingToken),
        t.holder ?? '-',
        (0, format_1.oneLine)(taskNote(t), noteWidth),
    ]));
}
function adjudicationsTable(pending) {
    return (0, format_1.table)(['KEY', 'CODE', 'TOKEN', 'REQUESTED', 'REASON'], pending.map((a) => [
        a.key,
        a.code,
        String(a.fencingToken),
        new Date(a.requestedAt).toISOString(),
        (0, format_1.oneLine)(a.reason ?? '', 60),
    ]));
}
const indent = (text) => text.replace(/^/gm, '  ');
/** What `start --wait` and `demo` print when a run has finished. */
function renderResult(workflowId, result) {
    const lines = [
        `run ${workflowId}: ${result.status}${result.budgetReason ? ` (budget: ${result.budgetReason})` : ''}`,
        `  tasks   ${statsLine(result.stats)}`,
        `  work    ${result.executions} attempts, at most ${result.maxConcurrent} ` +
            `at once, ${(0, format_1.duration)(result.budget.used.wallMs)}`,
        `  usage   ${(0, format_1.count)(result.budget.used.tokens)} tokens, ${(0, format_1.usd)(result.budget.used.usd)}`,
        '',
    ];
    const shown = result.tasks.length <= FULL_TABLE_MAX
        ? result.tasks
        : result.tasks.filter((t) => t.status !== 'succeeded').slice(0, FULL_TABLE_MAX);
    if (shown.length)
        lines.push(indent(tasksTable(shown)));
    // A big run's result leaves views out (`omittedTasks`): the `tasks` query has them all.
    const more = result.tasks.length - shown.length + result.omittedTasks;
    if (more > 0)
        lines.push(`  (${more} more; see \`teamrun tasks ${workflowId}\`)`);
    const failing = result.tasks.filter((t) => t.status === 'failed' || t.status === 'adjudication');
    if (failing.length) {
        lines.push('', 'failing tasks:');
        for (const t of failing)
            lines.push(`  ${t.key} (${t.status} after ${t.attempts} attempt(s)): ${(0, format_1.printable)(t.lastError ?? 'no error recorded')}`);
    }
    return lines.join('\n');
}
/** An attempt Temporal scheduled that no worker has started: why, as far as the queue tells. */
function notStartedLine(a) {
    const since = a.scheduledAt === null ? '' : ` ${(0, format_1.duration)(Math.max(0, Date.now() - a.scheduledAt))} ago`;
    const why = a.pollers === 0
        ? 'no worker polls that queue for activities'
        : a.pollers === null
            ? 'its queue could not be described'
            : `${a.pollers} worker(s) poll it, none has taken it yet`;
    return `not started  ${a.activityId}: scheduled${since} on task queue "${a.taskQueue ?? '?'}", ${why}`;
}
/** What `status` prints. */
function renderOverview(overview, webUi) {
    const lines = [
        `run      ${overview.workflowId}${overview.name ? ` (${overview.name})` : ''}`,
        `state    ${overview.state}${overview.open ? '' : ' (closed)'}`,
    ];
    if (overview.failure)
        lines.push(`failure  ${overview.failure}`);
    if (overview.stats)
        lines.push(`tasks    ${statsLine(overview.stats)}`);
    if (overview.executions !== null)
        lines.push(`attempts ${overview.executions}, at most ${overview.maxConcurrent} at once`);
    if (overview.budget) {
        const stopped = overview.budget.stopped ? ` (stopped: ${overview.budget.reason})` : '';
        lines.push(`budget${stopped}`, indent(budgetTable(overview.budget)));
        const ledger = overview.budget.limits.ledger;
        if (ledger)
            lines.push(`ledger   ${ledger} (shared budget; see \`teamrun ledger status ${ledger}\`)`);
    }
    if (overview.cancelRequestedAt !== null) {
        const when = new Date(overview.cancelRequestedAt).toISOString();
        lines.push(overview.open
            ? `cancel   requested ${when}: nothing new starts; the run closes as Canceled once its attempts settle`
            : `cancel   requested ${when}: the run closed as Canceled`);
    }
    lines.push(...overview.attempts.filter((a) => a.state === 'scheduled').map(notStartedLine));
    if (overview.pendingAdjudications.length) {
        lines.push(`pending adjudications (${overview.pendingAdjudications.length})`, indent(adjudicationsTable(overview.pendingAdjudications)));
    }
    else if (!overview.failure) {
        lines.push('pending adjudications: none');
    }
    if (webUi)
        lines.push(`web ui   ${webUi}`);
    return lines.join('\n');
}
