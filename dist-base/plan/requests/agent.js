"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AgentStepsSchema = exports.AgentStepSchema = exports.STEPS_LIMITS = exports.SteerRequestSchema = exports.STEER_LIMITS = void 0;
/**
 * The agent messages' payloads: `steerTask` (CONTRACT "Further additions") and the worker's own
 * `agentSteps` signal, which carries an agent attempt's steps to its run's event log.
 */
const zod_1 = require("zod");
const control_1 = require("./control");
exports.STEER_LIMITS = {
    /** A steer's text, in UTF-8 bytes. */
    textBytes: 8 * 1024,
};
exports.SteerRequestSchema = zod_1.z.object({
    key: zod_1.z.string().min(1).max(128),
    // Characters bound the parse; bytes (what a payload weighs) are checked by the run's rule.
    text: zod_1.z.string().min(1).max(exports.STEER_LIMITS.textBytes),
    fencingToken: zod_1.z.union([zod_1.z.number().int(), zod_1.z.string().regex(/^\d+$/).transform(Number)]).optional(),
    requestId: zod_1.z.string().min(1).max(control_1.MESSAGE_LIMITS.idChars).optional(),
    actor: zod_1.z.string().min(1).max(control_1.MESSAGE_LIMITS.idChars).optional(),
});
exports.STEPS_LIMITS = {
    /** Steps in one `agentSteps` signal (the worker batches them). */
    perSignal: 50,
    toolChars: 64,
    toolsPerTurn: 64,
};
const count = zod_1.z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const toolName = zod_1.z.string().max(exports.STEPS_LIMITS.toolChars);
exports.AgentStepSchema = zod_1.z.discriminatedUnion('type', [
    zod_1.z.object({
        type: zod_1.z.literal('agent:turn'),
        turn: count,
        inputTokens: count,
        outputTokens: count,
        tools: zod_1.z.array(toolName).max(exports.STEPS_LIMITS.toolsPerTurn),
    }),
    zod_1.z.object({ type: zod_1.z.literal('agent:tool'), turn: count, tool: toolName, ms: count, ok: zod_1.z.boolean() }),
]);
exports.AgentStepsSchema = zod_1.z.object({
    key: zod_1.z.string().min(1).max(128),
    fencingToken: count,
    steps: zod_1.z.array(exports.AgentStepSchema).max(exports.STEPS_LIMITS.perSignal),
});
