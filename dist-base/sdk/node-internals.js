"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.transformHistoryPayloads = transformHistoryPayloads;
const internal_non_workflow_1 = require("@temporalio/common/lib/internal-non-workflow");
/**
 * Replaces, in place, every payload list of a history (event inputs, results, details, failures'
 * payloads, memos, headers) by what `transform` returns for it; search attributes are left alone,
 * as Temporal keeps them plaintext to index them. The walk over every event type is generated
 * from the protos by the SDK, which is why it is borrowed rather than written here.
 */
async function transformHistoryPayloads(history, transform) {
    await (0, internal_non_workflow_1.visit)({ history }, internal_non_workflow_1.walkGetWorkflowExecutionHistoryResponse, {
        transformPayload: async (payload) => (await transform([payload]))[0],
        transformPayloads: transform,
        skipSearchAttributes: true,
    });
}
