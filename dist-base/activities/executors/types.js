"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExecutorError = void 0;
exports.attemptEnv = attemptEnv;
const errors_1 = require("../../errors");
const spans_1 = require("../../telemetry/spans");
/** A failure an executor reports on purpose; usage and output travel with it to the budget and the record. */
class ExecutorError extends errors_1.TeamrunError {
    get code() {
        return this.type;
    }
    nonRetryable;
    type;
    usage;
    output;
    logs;
    links;
    messages;
    constructor(message, options = {}) {
        super(message);
        this.name = 'ExecutorError';
        this.nonRetryable = options.nonRetryable ?? false;
        this.type = options.type ?? 'TeamExecutorFailed';
        this.usage = options.usage;
        this.output = options.output;
        this.logs = options.logs;
        this.links = options.links;
        this.messages = options.messages;
    }
}
exports.ExecutorError = ExecutorError;
/**
 * The variables every side effect of an attempt can use to fence its writes, and, with tracing on,
 * `TRACEPARENT` (W3C): the attempt's span, for the process's own spans to join the run's trace.
 */
function attemptEnv(ctx) {
    const parent = (0, spans_1.traceparent)();
    return {
        ...(parent ? { TRACEPARENT: parent } : {}),
        TEAMRUN_WORKFLOW_ID: ctx.workflowId,
        TEAMRUN_TASK_KEY: ctx.taskKey,
        TEAMRUN_ATTEMPT: String(ctx.attempt),
        TEAMRUN_FENCING_TOKEN: String(ctx.fencingToken),
        TEAMRUN_LEASE_ID: ctx.leaseId,
    };
}
