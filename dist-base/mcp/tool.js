"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.cursor = exports.runId = void 0;
exports.defineTool = defineTool;
exports.inputJsonSchema = inputJsonSchema;
exports.parseArguments = parseArguments;
exports.answer = answer;
exports.refusal = refusal;
exports.encodeCursor = encodeCursor;
exports.decodeCursor = decodeCursor;
/**
 * One declaration per tool (its zod input, what tools/list shows, its annotations, what it does)
 * and the one way every answer and refusal leaves the server: JSON text and structuredContent,
 * redacted; a refusal as `isError: true` whose text starts with its code and says what to do next.
 */
const client_1 = require("@temporalio/client");
const common_1 = require("@temporalio/common");
const zod_1 = require("zod");
const errors_1 = require("../errors");
const control_1 = require("../plan/requests/control");
const context_1 = require("./context");
/** Keeps each tool's arguments typed by its own schema while the server holds them all in one list. */
function defineTool(spec) {
    return spec;
}
/** Every tool names its run the same way: a Temporal workflow id. */
exports.runId = zod_1.z.string().min(1).max(1_000).describe('the run id (its Temporal workflow id)');
/** The JSON Schema tools/list gives for a tool: its input as a caller writes it (defaults optional). */
function inputJsonSchema(tool) {
    const schema = zod_1.z.toJSONSchema(tool.listed ?? tool.input, { io: 'input', unrepresentable: 'any' });
    const { $schema: _dialect, ...rest } = schema;
    return { ...rest, type: 'object' };
}
/** As the run parses a control request: `adjudicate`'s fields keep their own codes (`invalid_decision`, ...). */
function parseArguments(tool, args) {
    return (0, control_1.parseControl)(tool.input, args ?? {}, tool.name);
}
function answer(ctx, value) {
    const redacted = ctx.redactor.deep(value);
    return { content: [{ type: 'text', text: JSON.stringify(redacted, null, 2) }], structuredContent: redacted };
}
function refusal(ctx, err) {
    const { code, message } = refusalOf(err);
    const said = message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
    const hint = HINTS[code]?.(ctx);
    const text = ctx.redactor.text(hint ? `${said}. ${hint}` : said);
    return { content: [{ type: 'text', text }], isError: true };
}
function refusalOf(err) {
    if (err instanceof client_1.WorkflowUpdateFailedError && err.cause instanceof common_1.ApplicationFailure)
        return { code: err.cause.type ?? 'rejected', message: err.cause.message };
    if (err instanceof client_1.WorkflowNotFoundError)
        return { code: 'not_found', message: `run "${err.workflowId}" is not open (it has closed, or never existed)` };
    if (err instanceof errors_1.TeamrunError)
        return { code: err.code, message: err.message };
    const name = err?.name ?? '';
    if (name === 'ServiceError' || name === 'ConnectionError' || name === 'TransportError')
        return { code: 'unavailable', message: `Temporal did not answer: ${err.message}` };
    return { code: 'internal_error', message: err?.message ?? String(err) };
}
/** The sentence after a refusal's code: what an agent can do about it. */
const HINTS = {
    forbidden: (ctx) => `This server acts as "${ctx.actor}", which the run's governance.operators does not list: ask the run's owner ` +
        'to add it, or use a server started with an operator as its --actor',
    stale_attempt: () => "The task's attempt changed since that fencing token was read: call list_tasks and try again",
    not_active: () => 'The task has no running attempt (not started yet, or settled): list_tasks shows its status',
    already_interrupted: () => 'Another request already interrupted this attempt: it settles in adjudication',
    adjudication_not_required: () => 'The task is not waiting for a decision: run_status lists the pending adjudications',
    run_not_accepting_work: () => 'The run was aborted or stopped by its budget, so nothing new starts: decide accept or reject instead',
    evidence_mismatch: () => "The record's evidence changed: read it again with run_status",
    not_an_agent: () => 'steer_task reaches agent tasks only: interrupt_task takes over any other kind',
    value_too_large: () => 'Shorten the field named and call again',
    invalid_request: () => 'Fix the argument named and call again (tools/list has each schema)',
    TEAM_MAILBOX_CAPACITY_EXCEEDED: () => "The run's mailbox is full: send again once its tasks have read",
    unavailable: () => 'Check that the Temporal server and a teamrun worker are up (`teamrun doctor`), then retry',
};
/** Paging: an opaque cursor a list answer gives as `nextCursor`, holding where the next page starts. */
exports.cursor = zod_1.z.string().max(200).describe('nextCursor of the previous page; absent for the first page');
function encodeCursor(offset) {
    return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}
function decodeCursor(value) {
    if (value === undefined)
        return 0;
    try {
        const { offset } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
        if (Number.isSafeInteger(offset) && offset >= 0)
            return offset;
    }
    catch {
        // Refused below.
    }
    throw new context_1.McpRefusal('invalid_request', 'cursor: not one this server gave (pass nextCursor as it came)');
}
