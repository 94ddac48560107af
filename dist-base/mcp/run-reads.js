"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readOverview = readOverview;
exports.readTasks = readTasks;
const context_1 = require("../cli/context");
const run_view_1 = require("../cli/run-view");
const context_2 = require("./context");
async function readOverview(ctx, id) {
    await (0, context_2.runHandle)(ctx, id);
    return unavailableIfCli(() => new run_view_1.RunReader(ctx.client, id).overview());
}
async function readTasks(ctx, id, query) {
    await (0, context_2.runHandle)(ctx, id);
    return unavailableIfCli(() => new run_view_1.RunReader(ctx.client, id).tasks(query));
}
/** The reader's own errors say what is wrong with the run (no worker answers, a failing workflow task). */
async function unavailableIfCli(read) {
    try {
        return await read();
    }
    catch (err) {
        if (err instanceof context_1.CliError)
            throw new context_2.McpRefusal('unavailable', err.message);
        throw err;
    }
}
