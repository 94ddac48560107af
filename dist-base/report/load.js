"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReportError = void 0;
exports.loadRunReport = loadRunReport;
exports.loadRunAttempts = loadRunAttempts;
const client_1 = require("@temporalio/client");
const proto_1 = require("../sdk/proto");
const codec_1 = require("../codec");
const errors_1 = require("../errors");
const messages_1 = require("../workflows/messages");
const search_attributes_1 = require("../workflows/search-attributes");
const build_1 = require("./build");
const history_1 = require("./history");
class ReportError extends errors_1.TeamrunError {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
exports.ReportError = ReportError;
/** Bound on how far back a continue-as-new chain is followed. */
const MAX_RUNS = 1_000;
/** Queries of an open run need its worker; a missing worker must not hang the report. */
const QUERY_DEADLINE_MS = 10_000;
/** Reads a team run's whole history (every run of its continue-as-new chain) and final state into a report. */
async function loadRunReport(client, workflowId, now = Date.now(), options = {}) {
    const { description, histories, runIds } = await readRun(client, workflowId);
    const facts = (0, history_1.readHistories)(histories, workflowId);
    const execution = {
        workflowId,
        runIds,
        team: description.typedSearchAttributes.get(search_attributes_1.TeamName) ?? null,
        taskQueue: description.taskQueue,
        webUi: options.webUi ? { base: options.webUi.replace(/\/+$/, ''), namespace: client.options.namespace } : null,
        workflowStatus: description.status.name,
        pending: (description.raw.pendingActivities ?? []).map((p) => ({
            activityId: p.activityId ?? '',
            startedAt: (0, proto_1.optionalTsToMs)(p.lastStartedTime) ?? null,
            worker: p.lastWorkerIdentity || null,
        })),
    };
    let final = null;
    const closedWith = facts.close?.kind === 'completed' || facts.close?.kind === 'cancelled' ? facts.close.result : null;
    if (closedWith) {
        const result = closedWith;
        final = {
            state: result.status,
            stats: result.stats,
            tasks: result.tasks,
            adjudications: result.adjudications,
            budget: result.budget,
        };
    }
    else if (description.status.name === 'RUNNING') {
        final = await liveState(client, workflowId);
    }
    return (0, build_1.buildReport)(facts, execution, final, now);
}
/**
 * A run's attempts from its history alone (no query, no worker needed): what `teamrun logs`
 * reads. The report's rules classify each attempt; task states are left out.
 */
async function loadRunAttempts(client, workflowId) {
    const { description, histories, runIds } = await readRun(client, workflowId);
    const facts = (0, history_1.readHistories)(histories, workflowId);
    const pending = (description.raw.pendingActivities ?? []).map((p) => ({
        activityId: p.activityId ?? '',
        startedAt: (0, proto_1.optionalTsToMs)(p.lastStartedTime) ?? null,
        worker: p.lastWorkerIdentity || null,
    }));
    const execution = {
        workflowId,
        runIds,
        team: null,
        taskQueue: description.taskQueue,
        workflowStatus: description.status.name,
        pending,
    };
    return (0, build_1.buildReport)(facts, execution, null, Date.now());
}
/** The histories of the chain that ends in `runId`, oldest first, following `continuedExecutionRunId` back. */
/**
 * The run's description and the histories of its whole continue-as-new chain; `not_found` when there is no such run.
 */
async function readRun(client, workflowId) {
    const handle = client.workflow.getHandle(workflowId);
    let description;
    try {
        description = await handle.describe();
    }
    catch (err) {
        if (err instanceof client_1.WorkflowNotFoundError)
            throw new ReportError('not_found', `no run with id "${workflowId}" in namespace ${client.options.namespace}`);
        throw err;
    }
    const { histories, runIds } = await chain(client, workflowId, description.runId, await handle.fetchHistory());
    return { description, histories, runIds };
}
async function chain(client, workflowId, runId, latest) {
    // Histories come as stored: with a payload codec, encrypted until the client's codecs decode them.
    const codecs = client.options.loadedDataConverter.payloadCodecs;
    const histories = [await (0, codec_1.decodeHistory)(latest, codecs)];
    const runIds = [runId];
    for (let i = 0; i < MAX_RUNS; i++) {
        const started = histories[0].events?.[0]?.workflowExecutionStartedEventAttributes;
        const previous = started?.continuedExecutionRunId;
        if (!previous)
            break;
        histories.unshift(await (0, codec_1.decodeHistory)(await client.workflow.getHandle(workflowId, previous).fetchHistory(), codecs));
        runIds.unshift(previous);
    }
    return { histories, runIds };
}
async function liveState(client, workflowId) {
    const handle = client.workflow.getHandle(workflowId);
    try {
        return await client.withDeadline(Date.now() + QUERY_DEADLINE_MS, async () => {
            const status = await handle.query(messages_1.statusQuery);
            const [tasks, adjudications] = await Promise.all([
                handle.query(messages_1.tasksQuery, { limit: status.stats.total }),
                handle.query(messages_1.adjudicationsQuery),
            ]);
            return { state: status.state, stats: status.stats, tasks, adjudications, budget: status.budget };
        });
    }
    catch {
        return null;
    }
}
