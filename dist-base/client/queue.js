"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AWAITING_ADJUDICATION = void 0;
exports.adjudicationQueue = adjudicationQueue;
const messages_1 = require("../workflows/messages");
const search_attributes_1 = require("../workflows/search-attributes");
const index_1 = require("./index");
/**
 * Open runs that wait on a human: the run has nothing left to do but adjudications, or some of
 * its tasks wait for a decision (an approval step) while others still run.
 */
exports.AWAITING_ADJUDICATION = '(TeamRunStatus="AwaitingAdjudication" OR TeamRunPendingAdjudications > 0) AND ExecutionStatus="Running"';
/** Queries need a worker; a run whose worker is gone must not hold up the whole queue. */
const QUERY_DEADLINE_MS = 10_000;
const PARALLEL_QUERIES = 8;
/**
 * Every open run awaiting adjudication (a visibility query on the search attributes), with each
 * pending task read from the run's `adjudications` query. Oldest request first.
 */
async function adjudicationQueue(client, options = {}) {
    const query = options.team
        ? `${exports.AWAITING_ADJUDICATION} AND TeamName=${JSON.stringify(options.team)}`
        : exports.AWAITING_ADJUDICATION;
    const executions = [];
    for await (const execution of client.workflow.list({ query }))
        executions.push(execution);
    const runs = new Array(executions.length);
    let next = 0;
    const readNext = async () => {
        for (let i = next++; i < executions.length; i = next++)
            runs[i] = await queuedRun(client, executions[i], options.now);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_QUERIES, executions.length) }, readNext));
    const oldest = (run) => Math.min(...run.pending.map((p) => p.requestedAt), Number.MAX_SAFE_INTEGER);
    return runs.sort((a, b) => oldest(a) - oldest(b) || a.workflowId.localeCompare(b.workflowId));
}
async function queuedRun(client, execution, now) {
    const base = {
        workflowId: execution.workflowId,
        runId: execution.runId,
        team: execution.typedSearchAttributes.get(search_attributes_1.TeamName) ?? null,
        startedAt: execution.startTime.toISOString(),
        pendingCount: execution.typedSearchAttributes.get(search_attributes_1.TeamRunPendingAdjudications) ?? null,
    };
    try {
        const handle = (0, index_1.teamRunHandle)(client, execution.workflowId);
        const records = await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(messages_1.adjudicationsQuery));
        const at = now ?? Date.now();
        const pending = records
            .filter((r) => r.decision === null)
            .map((r) => ({
            key: r.key,
            code: r.code,
            reason: r.reason,
            actor: r.actor,
            fencingToken: r.fencingToken,
            requestedAt: r.requestedAt,
            ageMs: Math.max(0, at - r.requestedAt),
        }));
        return { ...base, pending, error: null };
    }
    catch (err) {
        return { ...base, pending: [], error: `adjudications query failed: ${err.message}` };
    }
}
