"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunReader = void 0;
const client_1 = require("@temporalio/client");
const client_2 = require("../client");
const run_health_1 = require("../client/run-health");
const setup_checks_1 = require("../client/setup-checks");
const messages_1 = require("../workflows/messages");
const search_attributes_1 = require("../workflows/search-attributes");
const context_1 = require("./context");
/**
 * A query answers with the workflow's clock as of its last task, which stands still while
 * nothing happens in the run; the wall time used is the one figure that moves on regardless.
 */
function withWallNow(status) {
    const wallMs = Math.max(status.budget.used.wallMs, Date.now() - status.startedAt);
    return { ...status.budget, used: { ...status.budget.used, wallMs } };
}
/** Queries need a worker to answer; this bounds how long a command waits for one. */
const QUERY_DEADLINE_MS = 15_000;
/** How a workflow that returned no result ended, by the failure Temporal reports. */
const CLOSED_HOW = {
    TerminatedFailure: 'terminated',
    CancelledFailure: 'cancelled',
    TimeoutFailure: 'timed out',
};
class RunReader {
    client;
    workflowId;
    handle;
    closed;
    constructor(client, workflowId) {
        this.client = client;
        this.workflowId = workflowId;
        this.handle = (0, client_2.teamRunHandle)(client, workflowId);
    }
    async overview() {
        const description = await this.describe();
        const name = description.typedSearchAttributes.get(search_attributes_1.TeamName) ?? null;
        if (description.status.name === 'RUNNING') {
            await this.throwIfStuck(description);
            const [status, adjudications] = await this.query(description.taskQueue, () => Promise.all([this.handle.query(messages_1.statusQuery), this.handle.query(messages_1.adjudicationsQuery)]));
            return {
                workflowId: this.workflowId,
                open: true,
                name: status.name,
                state: status.state,
                failure: null,
                stats: status.stats,
                budget: withWallNow(status),
                executions: status.executions,
                maxConcurrent: status.maxConcurrent,
                pendingAdjudications: adjudications.filter((a) => a.decision === null),
                attempts: await (0, run_health_1.pendingAttempts)(this.client, description).catch(() => []),
                cancelRequestedAt: status.cancelRequestedAt ?? null,
            };
        }
        const closed = await this.closedOutcome();
        if (!closed.ok) {
            return {
                workflowId: this.workflowId,
                open: false,
                name,
                state: closed.state,
                failure: closed.failure,
                stats: null,
                budget: null,
                executions: null,
                maxConcurrent: null,
                pendingAdjudications: [],
                attempts: [],
                cancelRequestedAt: null,
            };
        }
        const { result } = closed;
        return {
            workflowId: this.workflowId,
            open: false,
            name,
            state: result.cancellation ? `${result.status} (workflow canceled)` : result.status,
            failure: null,
            stats: result.stats,
            budget: result.budget,
            executions: result.executions,
            maxConcurrent: result.maxConcurrent,
            pendingAdjudications: result.adjudications.filter((a) => a.decision === null),
            attempts: [],
            cancelRequestedAt: result.cancellation?.requestedAt ?? null,
        };
    }
    async tasks(query) {
        const description = await this.describe();
        if (description.status.name === 'RUNNING') {
            return this.query(description.taskQueue, () => this.handle.query(messages_1.tasksQuery, query));
        }
        const closed = await this.closedOutcome();
        if (!closed.ok)
            throw new context_1.CliError(`run ${this.workflowId} has no tasks to show: ${closed.state}: ${closed.failure}`);
        // A big run's result leaves some task views out (`omittedTasks`); its `tasks` query still pages through them all.
        if (closed.result.omittedTasks > 0)
            return this.query(description.taskQueue, () => this.handle.query(messages_1.tasksQuery, query));
        const offset = Math.max(0, query.offset ?? 0);
        const limit = Math.max(0, query.limit ?? 1_000);
        return closed.result.tasks.filter((t) => !query.status || t.status === query.status).slice(offset, offset + limit);
    }
    async describe() {
        try {
            return await this.handle.describe();
        }
        catch (err) {
            if (err instanceof client_1.WorkflowNotFoundError) {
                throw new context_1.CliError(`no run with id "${this.workflowId}" in namespace ${this.client.options.namespace}`);
            }
            throw err;
        }
    }
    closedOutcome() {
        this.closed ??= (0, client_2.teamRunResult)(this.handle).then((result) => ({ ok: true, result }), (err) => {
            if (!(err instanceof client_1.WorkflowFailedError))
                throw err;
            const how = CLOSED_HOW[err.cause?.name ?? ''] ?? 'failed';
            return { ok: false, state: `workflow ${how}`, failure: err.cause?.message ?? err.message };
        });
        return this.closed;
    }
    /**
     * A run whose workflow task keeps failing answers no query: say why (missing search attributes
     * above all) instead of suggesting a worker that is there.
     */
    async throwIfStuck(description) {
        const failing = await (0, run_health_1.failingWorkflowTask)(this.client, description, (0, setup_checks_1.connectionAddress)(this.client.connection));
        if (failing) {
            throw new context_1.CliError((0, run_health_1.failingWorkflowTaskText)(this.workflowId, this.client.options.namespace, failing));
        }
    }
    async query(taskQueue, fn) {
        try {
            return await this.client.withDeadline(Date.now() + QUERY_DEADLINE_MS, fn);
        }
        catch (err) {
            // The first attempt of a failing workflow task may have failed since the describe.
            const now = await this.describe().catch(() => null);
            if (now?.status.name === 'RUNNING')
                await this.throwIfStuck(now);
            throw new context_1.CliError(`run ${this.workflowId} is open but did not answer a query (${err.message}). ` +
                `Is a worker running on task queue "${taskQueue}"? Start one with \`teamrun worker\`.`);
        }
    }
}
exports.RunReader = RunReader;
