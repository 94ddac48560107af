"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RUN_STATUS_FILTERS = exports.RunsFilterError = void 0;
exports.runsQuery = runsQuery;
exports.parseSince = parseSince;
exports.listTeamRuns = listTeamRuns;
const errors_1 = require("../errors");
const messages_1 = require("../workflows/messages");
const search_attributes_1 = require("../workflows/search-attributes");
const index_1 = require("./index");
const result_1 = require("./result");
class RunsFilterError extends errors_1.TeamrunError {
    code = 'invalid_filter';
}
exports.RunsFilterError = RunsFilterError;
const RUN_STATES = [
    'running',
    'awaiting_adjudication',
    'succeeded',
    'failed',
    'aborted',
    'budget_stopped',
    'unresolved',
];
const WORKFLOW_STATUSES = {
    open: 'ExecutionStatus="Running"',
    closed: 'ExecutionStatus!="Running"',
    completed: 'ExecutionStatus="Completed"',
    canceled: 'ExecutionStatus="Canceled"',
    cancelled: 'ExecutionStatus="Canceled"',
    terminated: 'ExecutionStatus="Terminated"',
    timed_out: 'ExecutionStatus="TimedOut"',
    workflow_failed: 'ExecutionStatus="Failed"',
};
/** The valid `--status` values, for help and errors. */
exports.RUN_STATUS_FILTERS = [...RUN_STATES, ...Object.keys(WORKFLOW_STATUSES).filter((s) => s !== 'cancelled')];
/** The visibility query of a filter: team runs only, on the search attributes of CONTRACT.md. */
function runsQuery(filter) {
    const parts = [`WorkflowType=${JSON.stringify(messages_1.WORKFLOW_TYPE)}`];
    if (filter.team !== undefined) {
        if (!/^[A-Za-z0-9._-]{1,100}$/.test(filter.team))
            throw new RunsFilterError(`--team "${filter.team}": a team name is 1..100 of [A-Za-z0-9._-]`);
        parts.push(`TeamName=${JSON.stringify(filter.team)}`);
    }
    if (filter.statuses?.length) {
        const terms = filter.statuses.map((raw) => {
            const status = raw.trim().toLowerCase().replace(/-/g, '_');
            if (RUN_STATES.includes(status))
                return `TeamRunStatus=${JSON.stringify((0, search_attributes_1.statusKeyword)(status))}`;
            const workflow = Object.prototype.hasOwnProperty.call(WORKFLOW_STATUSES, status)
                ? WORKFLOW_STATUSES[status]
                : undefined;
            if (workflow)
                return workflow;
            throw new RunsFilterError(`--status "${raw}": not one of ${exports.RUN_STATUS_FILTERS.join(', ')}`);
        });
        parts.push(`(${terms.join(' OR ')})`);
    }
    if (filter.since !== undefined)
        parts.push(`StartTime>${JSON.stringify(new Date(filter.since).toISOString())}`);
    return parts.join(' AND ');
}
/** `7d`, `12h`, `30m`, `45s` before `now`, or an ISO date. */
function parseSince(value, now = Date.now()) {
    const relative = /^(\d+)\s*([smhdw])$/.exec(value.trim());
    if (relative) {
        const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[relative[2]];
        return now - Number(relative[1]) * unit;
    }
    const at = Date.parse(value);
    if (Number.isNaN(at))
        throw new RunsFilterError(`--since "${value}": give a duration (7d, 12h, 30m) or a date (2026-11-30T12:00:00Z)`);
    return at;
}
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1_000;
const QUERY_DEADLINE_MS = 8_000;
const PARALLEL_READS = 8;
/** Recent team runs from visibility, newest first, each with its progress and budget used. */
async function listTeamRuns(client, filter = {}) {
    const query = runsQuery(filter);
    const limit = Math.min(Math.max(1, filter.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
    const executions = [];
    for await (const execution of client.workflow.list({ query, pageSize: Math.min(limit, 100) })) {
        executions.push(execution);
        if (executions.length >= limit)
            break;
    }
    executions.sort((a, b) => b.startTime.getTime() - a.startTime.getTime());
    const runs = new Array(executions.length);
    let next = 0;
    const readNext = async () => {
        for (let i = next++; i < executions.length; i = next++)
            runs[i] = await summarize(client, executions[i]);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, executions.length) }, readNext));
    return runs;
}
async function summarize(client, execution) {
    const attrs = execution.typedSearchAttributes;
    const keyword = attrs.get(search_attributes_1.TeamRunStatus) ?? null;
    const state = RUN_STATES.find((s) => (0, search_attributes_1.statusKeyword)(s) === keyword) ?? 'unknown';
    const workflowStatus = execution.status.name;
    const summary = {
        workflowId: execution.workflowId,
        runId: execution.runId,
        team: attrs.get(search_attributes_1.TeamName) ?? null,
        state: workflowStatus === 'RUNNING' || workflowStatus === 'COMPLETED'
            ? state
            : `${state} (${workflowStatus.toLowerCase()})`,
        workflowStatus,
        pendingAdjudications: attrs.get(search_attributes_1.TeamRunPendingAdjudications) ?? null,
        budgetStopped: attrs.get(search_attributes_1.TeamRunBudgetStopped) ?? null,
        startedAt: execution.startTime.getTime(),
        closedAt: execution.closeTime?.getTime() ?? null,
        progress: null,
        budgetUsed: null,
    };
    const handle = (0, index_1.teamRunHandle)(client, execution.workflowId);
    try {
        const view = workflowStatus === 'RUNNING'
            ? await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(messages_1.statusQuery))
            : workflowStatus === 'COMPLETED' || workflowStatus === 'CANCELLED'
                ? await (0, result_1.teamRunResult)(handle)
                : null;
        if (view) {
            const { stats, budget } = view;
            summary.progress = { done: stats.succeeded + stats.failed + stats.skipped, total: stats.total };
            summary.budgetUsed = { attempts: budget.used.tasks, tokens: budget.used.tokens, usd: budget.used.usd };
        }
    }
    catch {
        // An open run with no worker, or a workflow that closed without a result: the list still shows it.
    }
    return summary;
}
