/**
 * The agent messages' payloads: `steerTask` (CONTRACT "Further additions") and the worker's own
 * `agentSteps` signal, which carries an agent attempt's steps to its run's event log.
 */
import { z } from 'zod';
export declare const STEER_LIMITS: {
    /** A steer's text, in UTF-8 bytes. */
    readonly textBytes: number;
};
export declare const SteerRequestSchema: z.ZodObject<{
    key: z.ZodString;
    text: z.ZodString;
    fencingToken: z.ZodOptional<z.ZodUnion<readonly [z.ZodNumber, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>]>>;
    requestId: z.ZodOptional<z.ZodString>;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type SteerRequest = z.infer<typeof SteerRequestSchema>;
export declare const STEPS_LIMITS: {
    /** Steps in one `agentSteps` signal (the worker batches them). */
    readonly perSignal: 50;
    readonly toolChars: 64;
    readonly toolsPerTurn: 64;
};
export declare const AgentStepSchema: z.ZodDiscriminatedUnion<[z.ZodObject<{
    type: z.ZodLiteral<"agent:turn">;
    turn: z.ZodNumber;
    inputTokens: z.ZodNumber;
    outputTokens: z.ZodNumber;
    tools: z.ZodArray<z.ZodString>;
}, z.core.$strip>, z.ZodObject<{
    type: z.ZodLiteral<"agent:tool">;
    turn: z.ZodNumber;
    tool: z.ZodString;
    ms: z.ZodNumber;
    ok: z.ZodBoolean;
}, z.core.$strip>], "type">;
export declare const AgentStepsSchema: z.ZodObject<{
    key: z.ZodString;
    fencingToken: z.ZodNumber;
    steps: z.ZodArray<z.ZodDiscriminatedUnion<[z.ZodObject<{
        type: z.ZodLiteral<"agent:turn">;
        turn: z.ZodNumber;
        inputTokens: z.ZodNumber;
        outputTokens: z.ZodNumber;
        tools: z.ZodArray<z.ZodString>;
    }, z.core.$strip>, z.ZodObject<{
        type: z.ZodLiteral<"agent:tool">;
        turn: z.ZodNumber;
        tool: z.ZodString;
        ms: z.ZodNumber;
        ok: z.ZodBoolean;
    }, z.core.$strip>], "type">>;
}, z.core.$strip>;
export type AgentSteps = z.infer<typeof AgentStepsSchema>;
