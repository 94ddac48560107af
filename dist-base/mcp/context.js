"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.McpRefusal = void 0;
exports.runHandle = runHandle;
exports.notFound = notFound;
/**
 * What every tool of `teamrun mcp` works with: one Temporal client for the server's life, the
 * config it was started with, the identity it acts as, and the redactor its answers pass through.
 */
const client_1 = require("@temporalio/client");
const handle_1 = require("../client/handle");
const errors_1 = require("../errors");
/**
 * A tool call that cannot be done; `code` is the contract's (or the door's own, docs/mcp.md) and
 * the text an agent sees starts with it.
 */
class McpRefusal extends errors_1.TeamrunError {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
        this.name = 'McpRefusal';
    }
}
exports.McpRefusal = McpRefusal;
/** A run's handle, once Temporal knows the id: an unknown one is refused `not_found` before anything is sent. */
async function runHandle(ctx, runId) {
    const handle = (0, handle_1.teamRunHandle)(ctx.client, runId);
    try {
        await handle.describe();
    }
    catch (err) {
        if (err instanceof client_1.WorkflowNotFoundError)
            throw notFound(ctx, runId);
        throw err;
    }
    return handle;
}
function notFound(ctx, runId) {
    return new McpRefusal('not_found', `no run with id "${runId}" in namespace ${ctx.client.options.namespace}; list_runs shows the runs there`);
}
