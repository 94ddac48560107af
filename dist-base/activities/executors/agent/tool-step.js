"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.INTERRUPTED = void 0;
exports.runToolCall = runToolCall;
/**
 * One tool call of an agent, as a durable step: journaled as begun before it runs and with its
 * result after, so a crash in between is known. A tool the model invents or arguments that are not
 * JSON go back to the model as the tool's error; a long result is cut, with a note to the model.
 */
const types_1 = require("../../../agent/types");
const spans_1 = require("../../../telemetry/spans");
const own_tools_1 = require("./own-tools");
/** What a call cut by a crash reads as, when its tool is not idempotent: it may or may not have taken effect. */
exports.INTERRUPTED = 'interrupted: the worker running this tool call stopped before it answered; it may or may not have taken ' +
    'effect, and it was not run again. Check before repeating it.';
async function runToolCall(call, turn, step) {
    const started = Date.now();
    const name = call.function.name;
    // With tracing on, a tool call is a span (GenAI conventions: `execute_tool <name>`) under the attempt's.
    const result = await (0, spans_1.inSpan)(`execute_tool ${name}`, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name, 'gen_ai.tool.call.id': call.id }, () => attempt(call, step));
    const ms = Date.now() - started;
    const content = result.ok ? cut(step.redact(result.content)) : `error: ${cut(step.redact(result.error))}`;
    return { entry: { kind: 'tool-result', turn, id: call.id, name, ok: result.ok, content, ms }, ms };
}
async function attempt(call, step) {
    const name = call.function.name;
    const spec = step.offered.get(name);
    if (!spec) {
        const names = [...step.offered.keys()];
        return { ok: false, error: `no tool "${name}" here; the tools are: ${names.join(', ') || 'none'}` };
    }
    let args;
    try {
        args = JSON.parse(call.function.arguments);
    }
    catch (err) {
        return { ok: false, error: `the arguments are not JSON (${err.message}); send a JSON object` };
    }
    if (!args || typeof args !== 'object' || Array.isArray(args))
        return { ok: false, error: 'the arguments must be a JSON object' };
    const signal = step.timeoutMs ? AbortSignal.any([step.signal, AbortSignal.timeout(step.timeoutMs)]) : step.signal;
    if ((0, own_tools_1.isOwnTool)(name)) {
        try {
            return await (0, own_tools_1.callOwnTool)(name, args, step.gateway, step.callKey(call));
        }
        catch (err) {
            if (step.signal.aborted)
                throw err;
            return { ok: false, error: `${name} failed: ${err.message}` };
        }
    }
    if (!step.toolbox)
        return { ok: false, error: `no tool "${name}" on this worker` };
    return step.toolbox.call(name, args, { signal, timeoutMs: step.timeoutMs });
}
/** A result within its bound, with a note that says it was cut. */
function cut(text) {
    const max = types_1.JOURNAL_LIMITS.toolResultChars;
    if (text.length <= max)
        return text;
    return `${text.slice(0, max)}\n[teamrun: this result was cut from ${text.length} to ${max} characters]`;
}
