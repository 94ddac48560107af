"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startFailure = startFailure;
const client_1 = require("@temporalio/client");
const setup_checks_1 = require("../client/setup-checks");
const context_1 = require("./context");
/** gRPC status codes the server answers a start with. */
const GRPC = { INVALID_ARGUMENT: 3, RESOURCE_EXHAUSTED: 8, UNAVAILABLE: 14 };
/**
 * Why a run did not start, in one line (and the commands that fix it), instead of the SDK's
 * "Failed to start Workflow" and a stack: the run id in use, the namespace without teamrun's
 * search attributes, a plan over the server's payload limit, a server that does not answer.
 */
async function startFailure(err, client, plan) {
    const namespace = client.options.namespace;
    if (err instanceof client_1.WorkflowExecutionAlreadyStartedError) {
        return new context_1.CliError(`a run with id "${err.workflowId}" is already running in namespace ${namespace}; choose another --id`);
    }
    const cause = err?.cause;
    const detail = cause?.details ?? cause?.message ?? err?.message ?? String(err);
    const code = cause?.code;
    if (/search attribute/i.test(detail)) {
        const state = await (0, setup_checks_1.searchAttributeState)(client.connection, namespace).catch(() => null);
        const missing = state?.missing.length ? state.missing : null;
        if (missing) {
            return new context_1.CliError(`namespace ${namespace} lacks teamrun's search ` +
                `attributes ${missing.join(', ')}: \`teamrun doctor --fix\` registers them, or:\n` +
                (0, setup_checks_1.searchAttributeCommands)(namespace, missing, (0, setup_checks_1.connectionAddress)(client.connection))
                    .map((line) => `  ${line}`)
                    .join('\n'));
        }
        return new context_1.CliError(`the server refused the run's search attributes in ` +
            `namespace ${namespace}: ${detail} (\`teamrun doctor\` checks them)`);
    }
    if (code === GRPC.RESOURCE_EXHAUSTED || /size (exceeds|limit)|exceeds.*limit|too large/i.test(detail)) {
        const bytes = Buffer.byteLength(JSON.stringify(plan));
        return new context_1.CliError(`the plan is too large for the server (${bytes} bytes as JSON; Temporal ` +
            `refuses payloads over its blob limit, 2 MB by default): ${detail}`);
    }
    if (code === GRPC.UNAVAILABLE)
        return new context_1.CliError(`the server stopped answering while starting the run: ${detail}`);
    return new context_1.CliError(`the server refused to start the run: ${detail}`);
}
