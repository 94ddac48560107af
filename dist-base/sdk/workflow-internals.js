"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.completeAsCanceled = completeAsCanceled;
/**
 * The one place workflow code reaches into the SDK's private parts (`@temporalio/workflow/lib`),
 * for what its public API cannot do yet. Imported only by src/workflows; deterministic (it pushes
 * the same command on every replay). `test/unit/sdk-internals.test.ts` fails when the shape used
 * here changes, and `@temporalio/*` is pinned to a tested minor range in package.json.
 */
const global_attributes_1 = require("@temporalio/workflow/lib/global-attributes");
/**
 * Completes the workflow as Canceled with `details` (converted by the workflow's payload
 * converter) in the `CancelWorkflowExecution` command, the command the SDK itself pushes for a
 * thrown cancellation, but without details (1.24 has no public way to give them). Nothing the
 * workflow does after this call is sent: the workflow has completed.
 */
function completeAsCanceled(details) {
    const activator = (0, global_attributes_1.getActivator)();
    const payloads = [activator.payloadConverter.toPayload(details)];
    activator.pushCommand({ cancelWorkflowExecution: { details: { payloads } } }, true);
}
