"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.GatewayRefusal = void 0;
exports.attemptFromEnv = attemptFromEnv;
exports.gatewayFromEnv = gatewayFromEnv;
exports.askGateway = askGateway;
const gateway_request_1 = require("../activities/gateway-request");
const context_1 = require("./context");
/**
 * The attempt a command runs inside of, from the variables a shell task's attempt has
 * (`teamrun inbox`, `send`, `add-tasks`); null outside a task.
 */
function attemptFromEnv() {
    const { TEAMRUN_WORKFLOW_ID: workflowId, TEAMRUN_TASK_KEY: key, TEAMRUN_FENCING_TOKEN: token } = process.env;
    if (!workflowId || !key || !token)
        return null;
    if (!/^\d+$/.test(token))
        throw new context_1.CliError(`TEAMRUN_FENCING_TOKEN is "${token}", not a number`);
    return { workflowId, key, fencingToken: Number(token) };
}
/** The worker's attempt gateway, when the command runs inside one of its attempts. */
function gatewayFromEnv() {
    const { TEAMRUN_ATTEMPT_SOCKET: socket, TEAMRUN_ATTEMPT_SECRET: secret } = process.env;
    return socket && secret ? { socket, secret } : null;
}
/**
 * Sends a request to the run as the attempt, through its worker's gateway: the worker adds who it
 * is from and sends it with its own client and codec. Resolves with the run's verdict; a refusal
 * is a CliError with the run's code.
 */
async function askGateway(gateway, message, body) {
    const text = await (0, gateway_request_1.postToGateway)(gateway, message, body).catch((err) => {
        throw new context_1.CliError(`${message}: the worker's attempt gateway ($TEAMRUN_ATTEMPT_SOCKET) did not answer: ${err.message}`);
    });
    let answer;
    try {
        answer = JSON.parse(text);
    }
    catch {
        throw new context_1.CliError(`${message}: the worker's attempt gateway answered something that is not JSON`);
    }
    if (answer.ok === true)
        return answer.answer;
    throw new GatewayRefusal(message, String(answer.code), String(answer.message));
}
/** The gateway, or the run behind it, refused the request: `refusal` is its stable code. */
class GatewayRefusal extends context_1.CliError {
    refusal;
    constructor(message, refusal, detail) {
        super(`${message} rejected: ${refusal}: ${detail}`);
        this.refusal = refusal;
    }
}
exports.GatewayRefusal = GatewayRefusal;
