/**
 * The `agent` executor kind's spec (CONTRACT.md "Further additions"): a tool-using loop over the
 * worker's OpenAI-compatible endpoint. The plan only names tools; the worker defines them.
 */
import { z } from 'zod';
/** Every bound of an agent's spec, named once (docs/agents.md lists them). */
export declare const AGENT_LIMITS: {
    /** Model calls of one attempt, at most. */
    readonly maxTurns: 200;
    readonly defaultMaxTurns: 30;
    /** Tool calls of one attempt, at most. */
    readonly maxToolCalls: 1000;
    readonly defaultMaxToolCalls: 100;
    /** Names (or `<server>__*` patterns) one task may list. */
    readonly maxTools: 64;
    readonly instructionsChars: number;
    /** Output tokens the loop reserves for a call that does not say (`maxTokens`). */
    readonly defaultMaxTokens: 1024;
};
/** teamrun's own tools for agents; `add_tasks` only for a task with `allowSpawn`. */
export declare const TEAMRUN_TOOLS: readonly ['teamrun__send_message', 'teamrun__read_inbox', 'teamrun__add_tasks', 'teamrun__set_output'];
export type TeamrunToolName = (typeof TEAMRUN_TOOLS)[number];
export declare const AgentSpecSchema: z.ZodObject<{
    model: z.ZodString;
    instructions: z.ZodOptional<z.ZodString>;
    prompt: z.ZodOptional<z.ZodString>;
    messages: z.ZodOptional<z.ZodArray<z.ZodObject<{
        role: z.ZodEnum<{
            assistant: "assistant";
            system: "system";
            user: "user";
        }>;
        content: z.ZodString;
    }, z.core.$strict>>>;
    tools: z.ZodOptional<z.ZodArray<z.ZodString>>;
    maxTurns: z.ZodOptional<z.ZodNumber>;
    maxToolCalls: z.ZodOptional<z.ZodNumber>;
    maxTokens: z.ZodOptional<z.ZodNumber>;
    turnTimeoutMs: z.ZodOptional<z.ZodNumber>;
    toolTimeoutMs: z.ZodOptional<z.ZodNumber>;
}, z.core.$strict>;
export type AgentSpec = z.infer<typeof AgentSpecSchema>;
