"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AgentSpecSchema = exports.TEAMRUN_TOOLS = exports.AGENT_LIMITS = void 0;
/**
 * The `agent` executor kind's spec (CONTRACT.md "Further additions"): a tool-using loop over the
 * worker's OpenAI-compatible endpoint. The plan only names tools; the worker defines them.
 */
const zod_1 = require("zod");
const fields_1 = require("./fields");
const graph_1 = require("./graph");
/** Every bound of an agent's spec, named once (docs/agents.md lists them). */
exports.AGENT_LIMITS = {
    /** Model calls of one attempt, at most. */
    maxTurns: 200,
    defaultMaxTurns: 30,
    /** Tool calls of one attempt, at most. */
    maxToolCalls: 1_000,
    defaultMaxToolCalls: 100,
    /** Names (or `<server>__*` patterns) one task may list. */
    maxTools: 64,
    instructionsChars: 64 * 1024,
    /** Output tokens the loop reserves for a call that does not say (`maxTokens`). */
    defaultMaxTokens: 1_024,
};
/** teamrun's own tools for agents; `add_tasks` only for a task with `allowSpawn`. */
exports.TEAMRUN_TOOLS = [
    'teamrun__send_message',
    'teamrun__read_inbox',
    'teamrun__add_tasks',
    'teamrun__set_output',
];
/** OpenAI function names: letters, digits, `_` and `-`, at most 64; here `<server>__<tool>` or `<server>__*`. */
const TOOL_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__(?:\*|[A-Za-z0-9_-]+)$/;
const ToolNameSchema = zod_1.z
    .string()
    .max(64, 'a tool name is at most 64 characters (an OpenAI function name)')
    .regex(TOOL_NAME, 'a tool is named "<server>__<tool>" or "<server>__*" (letters, digits, "_" and "-")')
    .superRefine((name, ctx) => {
    if (!name.startsWith('teamrun__') || name === 'teamrun__*' || exports.TEAMRUN_TOOLS.includes(name))
        return;
    const near = (0, graph_1.nearest)(name, exports.TEAMRUN_TOOLS);
    ctx.addIssue({
        code: 'custom',
        message: `unknown teamrun tool "${name}"${near ? ` (did you mean "${near}"?)` : ''}: ${exports.TEAMRUN_TOOLS.join(', ')}`,
    });
});
exports.AgentSpecSchema = zod_1.z
    .object({
    model: zod_1.z.string().min(1).max(200),
    /** The system message, before the prompt or messages. */
    instructions: zod_1.z.string().max(exports.AGENT_LIMITS.instructionsChars).optional(),
    prompt: zod_1.z.string().optional(),
    messages: zod_1.z.array(fields_1.ChatMessageSchema).min(1).optional(),
    tools: zod_1.z.array(ToolNameSchema).max(exports.AGENT_LIMITS.maxTools).optional(),
    maxTurns: zod_1.z.number().int().min(1).max(exports.AGENT_LIMITS.maxTurns).optional(),
    maxToolCalls: zod_1.z.number().int().min(0).max(exports.AGENT_LIMITS.maxToolCalls).optional(),
    /** Output tokens of one model call: sent as `max_tokens` and reserved before the call. */
    maxTokens: zod_1.z.number().int().min(1).max(1_000_000).optional(),
    turnTimeoutMs: fields_1.durationMs.min(1).optional(),
    toolTimeoutMs: fields_1.durationMs.min(1).optional(),
})
    .strict()
    .refine(...fields_1.onePromptOrMessages);
