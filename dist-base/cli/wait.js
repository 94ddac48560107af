"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.waitForRun = waitForRun;
const promises_1 = require("node:timers/promises");
const client_1 = require("@temporalio/client");
const client_2 = require("../client");
const messages_1 = require("../workflows/messages");
const context_1 = require("./context");
const progress_1 = require("./progress");
/** About twice a second: live enough to watch, cheap for the worker that answers. */
const POLL_MS = 500;
/**
 * Waits for a run's result while showing its progress from the `status` query. A workflow that
 * fails instead of returning a result (an invalid plan, a termination) becomes a CliError.
 * `leaveOnCtrlC`: Ctrl-C exits 130 with a line saying the run goes on.
 */
async function waitForRun(handle, progressOptions = {}, options = {}) {
    const progress = (0, progress_1.createProgress)(progressOptions);
    // With leaveOnCtrlC (`start --wait`, `watch`), Ctrl-C stops the watching, not the run: say so,
    // and how to come back or stop it. The demo handles Ctrl-C itself (it stops its own stack).
    const interrupted = () => {
        progress.stop();
        const id = handle.workflowId;
        process.stderr.write(`\nteamrun: stopped watching; run ${id} goes on. ` +
            `Watch it again with \`teamrun watch ${id}\`, or stop it with \`teamrun abort ${id} --reason <why>\`\n`);
        process.exit(130);
    };
    if (options.leaveOnCtrlC)
        process.once('SIGINT', interrupted);
    let finished = false;
    const result = (0, client_2.teamRunResult)(handle).finally(() => {
        finished = true;
    });
    // The poll loop observes `finished`; this keeps an early rejection from being reported as unhandled.
    result.catch(() => undefined);
    try {
        while (!finished) {
            try {
                progress.update(await handle.query(messages_1.statusQuery));
            }
            catch {
                // A query can fail while the run closes or before a worker picks it up; the next poll tells.
            }
            await Promise.race([(0, promises_1.setTimeout)(POLL_MS), result.catch(() => undefined)]);
        }
        const final = await result;
        progress.update({
            state: final.status,
            stats: final.stats,
            budget: final.budget,
            pendingAdjudications: final.adjudications.filter((a) => a.decision === null).length,
        });
        return final;
    }
    catch (err) {
        if (err instanceof client_1.WorkflowFailedError) {
            throw new context_1.CliError(`run ${handle.workflowId} failed: ${err.cause?.message ?? err.message}`);
        }
        throw err;
    }
    finally {
        process.off('SIGINT', interrupted);
        progress.stop();
    }
}
