"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.recordSteps = recordSteps;
exports.validateSteer = validateSteer;
exports.steered = steered;
/**
 * Agent attempts as their run sees them: the steps their worker reports (`agent:turn`,
 * `agent:tool` events, and which turn each agent is in), and whether a steer may reach one. The
 * transcript itself is never here: it lives in the task's journal (src/agent).
 */
const bytes_1 = require("../plan/bytes");
const agent_1 = require("../plan/requests/agent");
const control_1 = require("../plan/requests/control");
const governance_1 = require("./governance");
/** Records an attempt's steps as events; steps of an attempt the run no longer awaits are dropped. */
function recordSteps(run, payload, now) {
    const parsed = agent_1.AgentStepsSchema.safeParse(payload);
    if (!parsed.success)
        return 0;
    const { key, fencingToken, steps } = parsed.data;
    const attempt = run.leases.get(key);
    if (!attempt || attempt.fencingToken !== fencingToken)
        return 0;
    const progress = run.agents.get(key);
    const current = progress?.fencingToken === fencingToken ? progress : { fencingToken, turn: 0, lastTool: null };
    for (const step of steps) {
        run.events.record(step.type, now, { key, fencingToken, ...step, type: undefined });
        current.turn = Math.max(current.turn, step.turn);
        if (step.type === 'agent:tool')
            current.lastTool = step.tool;
    }
    run.agents.set(key, current);
    run.touch();
    return steps.length;
}
/** The checks of a steer (CONTRACT `steerTask`), in the update's validator: nothing refused reaches history. */
function validateSteer(run, payload) {
    const request = (0, control_1.parseControl)(agent_1.SteerRequestSchema, payload, 'steerTask');
    if ((0, bytes_1.utf8Bytes)(request.text) > agent_1.STEER_LIMITS.textBytes)
        throw new control_1.TeamControlError('value_too_large', `steerTask: text: at most ${agent_1.STEER_LIMITS.textBytes} bytes`, 'text');
    (0, governance_1.checkActor)(run.plan, request.actor, 'steerTask');
    // A task that is not an agent is never steerable, running or not.
    const i = run.graph.indexOf(request.key);
    const kind = i === undefined ? undefined : run.graph.specs[i].executor.kind;
    if (kind !== 'agent')
        throw new control_1.TeamControlError('not_an_agent', `steerTask: task "${request.key}" is a ${kind} task, not an agent`);
    const attempt = run.leases.get(request.key);
    if (!attempt || attempt.stop)
        throw new control_1.TeamControlError('not_active', `steerTask: task "${request.key}" has no running attempt`);
    if (request.fencingToken !== undefined && request.fencingToken !== attempt.fencingToken) {
        throw new control_1.TeamControlError('stale_attempt', `steerTask: fencing token ${request.fencingToken} is not the running attempt's (${attempt.fencingToken})`);
    }
    return { ...request, fencingToken: attempt.fencingToken };
}
function steered(run, request, fencingToken, turn, now) {
    run.events.record('agent:steered', now, {
        key: request.key,
        fencingToken,
        turn,
        actor: request.actor ?? null,
        requestId: request.requestId ?? null,
    });
    run.touch();
}
