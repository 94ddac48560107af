"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AgentClisConfigSchema = exports.AgentCliConfigSchema = void 0;
const zod_1 = require("zod");
const schema_1 = require("../plan/schema");
const variableName = zod_1.z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name');
/**
 * One coding-agent CLI as the worker's operator sets it up (`worker.agentClis.<cli>`): its binary
 * (never the plan's), the extra arguments a plan may pass, the variables it gets beyond a shell
 * task's, and whether each attempt's `git worktree` is kept after the attempt.
 */
exports.AgentCliConfigSchema = zod_1.z
    .object({
    command: zod_1.z.string().min(1).max(4_096),
    allowArgs: zod_1.z.array(zod_1.z.string().min(1).max(1_024)).max(256).default([]),
    // A literal, or a variable of the worker's own environment (redacted from all the attempt reports).
    env: zod_1.z
        .record(variableName, zod_1.z.union([zod_1.z.string().max(64 * 1024), zod_1.z.object({ fromWorkerEnv: variableName }).strict()]))
        .default({}),
    keepWorktrees: zod_1.z.boolean().default(false),
})
    .strict();
exports.AgentClisConfigSchema = zod_1.z
    .partialRecord(zod_1.z.enum(schema_1.AGENT_CLIS, { error: `must be one of ${schema_1.AGENT_CLIS.join(', ')}` }), exports.AgentCliConfigSchema)
    .default({});
