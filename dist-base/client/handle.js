"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withControls = withControls;
exports.teamRunHandle = teamRunHandle;
const messages_1 = require("../workflows/messages");
const update_retry_1 = require("../sdk/update-retry");
/** Adds the controls to a workflow handle of a `teamRun` workflow. */
function withControls(handle) {
    retryingUpdates(handle);
    const table = Object.entries(messages_1.TEAM_RUN_MESSAGES);
    const controls = Object.fromEntries(table.map(([method, message]) => [method, methodOf(handle, message)]));
    return Object.assign(handle, controls);
}
/** One message's method, sent through the handle (whose updates retry a refusal at a handover). */
function methodOf(handle, message) {
    const { definition } = message;
    if (definition.type === 'query')
        return (...args) => handle.query(definition, ...args);
    if (definition.type === 'signal')
        return (...args) => handle.signal(definition, ...args);
    const { omitted } = message;
    return (request = omitted) => handle.executeUpdate(definition, { args: [request] });
}
/** Makes the handle's own `executeUpdate` and `startUpdate` retry an update refused at a handover. */
function retryingUpdates(handle) {
    const execute = handle.executeUpdate.bind(handle);
    const start = handle.startUpdate.bind(handle);
    // A caller's own update id is kept; without one, every try sends the one retryUpdate chose.
    Object.assign(handle, {
        executeUpdate: (def, options) => (0, update_retry_1.retryUpdate)((updateId) => execute(def, { ...options, updateId }), options?.updateId),
        startUpdate: (def, options) => (0, update_retry_1.retryUpdate)((updateId) => start(def, { ...options, updateId }), options.updateId),
    });
}
/** The handle of an existing run, by workflow id. */
function teamRunHandle(client, workflowId) {
    return withControls(client.workflow.getHandle(workflowId));
}
