import { z } from 'zod';
/**
 * One coding-agent CLI as the worker's operator sets it up (`worker.agentClis.<cli>`): its binary
 * (never the plan's), the extra arguments a plan may pass, the variables it gets beyond a shell
 * task's, and whether each attempt's `git worktree` is kept after the attempt.
 */
export declare const AgentCliConfigSchema: z.ZodObject<{
    command: z.ZodString;
    allowArgs: z.ZodDefault<z.ZodArray<z.ZodString>>;
    env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        fromWorkerEnv: z.ZodString;
    }, z.core.$strict>]>>>;
    keepWorktrees: z.ZodDefault<z.ZodBoolean>;
}, z.core.$strict>;
export type AgentCliConfig = z.infer<typeof AgentCliConfigSchema>;
export declare const AgentClisConfigSchema: z.ZodDefault<z.ZodRecord<z.ZodEnum<{
    "claude-code": "claude-code";
    codex: "codex";
    gemini: "gemini";
}> & z.core.$partial, z.ZodObject<{
    command: z.ZodString;
    allowArgs: z.ZodDefault<z.ZodArray<z.ZodString>>;
    env: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodObject<{
        fromWorkerEnv: z.ZodString;
    }, z.core.$strict>]>>>;
    keepWorktrees: z.ZodDefault<z.ZodBoolean>;
}, z.core.$strict>>>;
