"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FOREIGN_FAILURE_TYPES = void 0;
exports.isForeignActivity = isForeignActivity;
exports.foreignActivityInput = foreignActivityInput;
exports.foreignActivityOptions = foreignActivityOptions;
exports.isResultEnvelope = isResultEnvelope;
exports.foreignResultOutcome = foreignResultOutcome;
exports.boundForeignOutcome = boundForeignOutcome;
const interface_1 = require("../activities/interface");
const schema_1 = require("../plan/schema");
/** Error types of foreign attempts the run refuses. */
exports.FOREIGN_FAILURE_TYPES = {
    invalidUsage: 'TeamInvalidUsage',
};
/** Bound on an attempt that heartbeats and gives no `startToCloseMs`: the lease is what notices a dead worker. */
const UNBOUNDED_ATTEMPT_MS = 30 * 24 * 3600_000;
const MAX_MESSAGE_CHARS = 4_000;
const MAX_NAME_CHARS = 200;
function isForeignActivity(claim) {
    return claim.executor.kind === 'activity';
}
function specOf(claim) {
    return claim.executor;
}
function foreignActivityInput(workflowId, claim) {
    return {
        workflowId,
        taskKey: claim.key,
        attempt: claim.attempt,
        fencingToken: claim.fencingToken,
        leaseId: claim.leaseId,
        holder: claim.holder,
        input: specOf(claim).input ?? null,
        dependencyOutputs: claim.dependencyOutputs,
        ...(claim.inbox ? { inbox: claim.inbox } : {}),
    };
}
/**
 * Heartbeats required (the default): the heartbeat timeout is the task's lease TTL, as for every
 * attempt. Optional: no lease at all, and `startToCloseMs` (required then) is the only bound.
 */
function foreignActivityOptions(claim) {
    const spec = specOf(claim);
    const base = { activityType: spec.activityType, taskQueue: spec.taskQueue };
    if (spec.heartbeat === 'optional')
        return { ...base, startToCloseTimeoutMs: spec.startToCloseMs ?? UNBOUNDED_ATTEMPT_MS };
    return {
        ...base,
        heartbeatTimeoutMs: claim.ttlMs,
        startToCloseTimeoutMs: spec.startToCloseMs ?? UNBOUNDED_ATTEMPT_MS,
    };
}
function isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/**
 * The envelope rule: a result is `{ output, usage }` when it is an object that has a `usage` key
 * and no key but `output` and `usage`. Anything else, `{ output }` alone included, is the output
 * itself. To output such an object as it is, wrap it: `{ output: <it>, usage: {} }`.
 */
function isResultEnvelope(result) {
    return (isPlainObject(result) &&
        Object.hasOwn(result, 'usage') &&
        Object.keys(result).every((k) => k === 'output' || k === 'usage'));
}
/**
 * What a foreign activity's result means for its task. Usage is taken as reported (the workflow
 * has no price table: without `costUsd` it is unpriced usage). Usage that does not fit the
 * contract's shape, or an output over the bound, fails the task without retry.
 */
function foreignResultOutcome(result) {
    let output = result;
    let usage;
    if (isResultEnvelope(result)) {
        const parsed = schema_1.UsageSchema.safeParse(result.usage);
        if (!parsed.success) {
            const problem = parsed.error.issues[0];
            return {
                kind: 'failed',
                errorType: exports.FOREIGN_FAILURE_TYPES.invalidUsage,
                message: `the activity's usage is invalid at usage${problem.path.map((p) => `.${String(p)}`).join('')}: ` +
                    `${problem.message} (fields: inputTokens, outputTokens, cacheTokens, model, costUsd)`,
                nonRetryable: true,
            };
        }
        usage = parsed.data;
        output = result.output;
    }
    const size = output === undefined ? 0 : (0, schema_1.jsonBytes)(output);
    if (size > interface_1.MAX_OUTPUT_BYTES) {
        return {
            kind: 'failed',
            errorType: interface_1.FAILURE_TYPES.outputTooLarge,
            message: `task output is ${size} bytes, over the ${interface_1.MAX_OUTPUT_BYTES}-byte bound (outputs travel through ` +
                `history to dependents; store large results elsewhere and output a reference)`,
            nonRetryable: true,
            usage,
        };
    }
    return { kind: 'completed', output, usage };
}
/** The fields of an `AttemptOutcome`; anything else a foreign failure's details spread in is dropped. */
const OUTCOME_FIELDS = [
    'kind',
    'message',
    'errorType',
    'nonRetryable',
    'usage',
    'output',
    'workerIdentity',
    'reason',
];
function boundedString(value, max) {
    return typeof value === 'string' ? value.slice(0, max) : undefined;
}
/**
 * A foreign failure's details and heartbeats are whatever the other SDK sent: keep of them only
 * what fits the contract's shapes and bounds, so nothing unbounded enters the run's state.
 */
function boundForeignOutcome(outcome) {
    const out = {};
    for (const key of OUTCOME_FIELDS)
        if (Object.hasOwn(outcome, key))
            out[key] = outcome[key];
    if ('usage' in outcome) {
        const parsed = schema_1.UsageSchema.safeParse(outcome.usage);
        out.usage = parsed.success ? parsed.data : undefined;
    }
    if ('output' in outcome && outcome.output !== undefined && (0, schema_1.jsonBytes)(outcome.output) > interface_1.MAX_OUTPUT_BYTES)
        out.output = undefined;
    if ('workerIdentity' in outcome)
        out.workerIdentity = boundedString(outcome.workerIdentity, MAX_NAME_CHARS);
    if (outcome.kind === 'failed') {
        out.message = boundedString(outcome.message, MAX_MESSAGE_CHARS) ?? 'the activity failed';
        out.errorType = boundedString(outcome.errorType, MAX_NAME_CHARS);
    }
    for (const key of Object.keys(out))
        if (out[key] === undefined)
            delete out[key];
    return out;
}
