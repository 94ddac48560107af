"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runStatus = runStatus;
/**
 * run_status's long poll. Its answer carries a cursor: a digest of what moves in a run (state,
 * task counts, attempts started, pending adjudications, budget used). Given one back with
 * `waitMs`, the call waits until the run differs from it or closes, looking once a second with
 * one `status` query, and sends a progress notification at each look when the client asked.
 */
const node_crypto_1 = require("node:crypto");
const messages_1 = require("../workflows/messages");
const context_1 = require("./context");
const run_reads_1 = require("./run-reads");
const LOOK_EVERY_MS = 1_000;
function digest(moving) {
    return (0, node_crypto_1.createHash)('sha256').update(JSON.stringify(moving)).digest('base64url').slice(0, 22);
}
async function runStatus(ctx, args, call) {
    const handle = await (0, context_1.runHandle)(ctx, args.runId);
    const deadline = Date.now() + (args.waitMs ?? 0);
    if (args.cursor !== undefined && (args.waitMs ?? 0) > 0) {
        for (let look = 1; Date.now() < deadline && !call.signal.aborted; look++) {
            if ((await handle.describe()).status.name !== 'RUNNING')
                break;
            const status = await handle.query(messages_1.statusQuery);
            const now = { ...status, pending: status.pendingAdjudications, used: status.budget.used };
            if (digest(movingOf(now)) !== args.cursor)
                break;
            const done = status.stats.succeeded + status.stats.failed + status.stats.skipped;
            await call.progress(look, `${status.state}: ${done} of ${status.stats.total} tasks settled, waiting`);
            await new Promise((resolve) => setTimeout(resolve, Math.min(LOOK_EVERY_MS, deadline - Date.now())));
        }
    }
    const overview = await (0, run_reads_1.readOverview)(ctx, args.runId);
    const cursor = digest(movingOf({
        ...overview,
        stats: overview.stats,
        executions: overview.executions,
        pending: overview.pendingAdjudications.length,
        used: overview.budget?.used ?? null,
    }));
    return { ...overview, cursor, changed: cursor !== args.cursor };
}
/** The same fields in the same order whether read from the `status` query or a closed run's result. */
function movingOf(from) {
    return {
        state: from.state,
        stats: from.stats,
        executions: from.executions ?? 0,
        pending: from.pending,
        used: from.used ? { tasks: from.used.tasks, tokens: from.used.tokens, usd: from.used.usd } : null,
    };
}
