"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REPORT_STEPS_MAX = void 0;
exports.agentStepsOf = agentStepsOf;
/**
 * An agent's steps as the run's history holds them: the worker's `agentSteps` signals, each a
 * batch of `agent:turn` (a model call) and `agent:tool` (a tool call) steps. The report draws them
 * on the timeline apart from the run's own (system) steps. History is input like any other, so a
 * batch is checked against the signal's schema and the report keeps a bounded number of steps.
 */
const agent_1 = require("../plan/requests/agent");
/** Steps the report keeps; a 200-turn agent with tools fits many times over, a flood does not. */
exports.REPORT_STEPS_MAX = 5_000;
/** The steps of one `agentSteps` signal received at `at`, or [] for a payload that is not one. */
function agentStepsOf(payload, at) {
    const parsed = agent_1.AgentStepsSchema.safeParse(payload);
    if (!parsed.success)
        return [];
    const { key, fencingToken, steps } = parsed.data;
    return steps.map((s) => s.type === 'agent:turn'
        ? {
            at,
            key,
            fencingToken,
            kind: 'model',
            turn: s.turn,
            summary: `model call, turn ${s.turn}: ${s.inputTokens} in / ${s.outputTokens} out tokens` +
                (s.tools.length ? `; asked for ${s.tools.join(', ')}` : '; answered'),
            ok: true,
        }
        : {
            at,
            key,
            fencingToken,
            kind: 'tool',
            turn: s.turn,
            summary: `tool ${s.tool}, turn ${s.turn}: ${s.ms} ms, ${s.ok ? 'ok' : 'failed'}`,
            ok: s.ok,
        });
}
