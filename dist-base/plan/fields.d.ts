/** Field schemas more than one executor kind's schema uses. Imports nothing from the plan's schema. */
import { z } from 'zod';
/** Temporal's timers and timeouts hold at most this many milliseconds (a signed 32-bit integer). */
export declare const MAX_TIMEOUT_MS: number;
export declare const durationMs: z.ZodNumber;
export declare const ChatMessageSchema: z.ZodObject<{
    role: z.ZodEnum<{
        assistant: "assistant";
        system: "system";
        user: "user";
    }>;
    content: z.ZodString;
}, z.core.$strict>;
export declare const onePromptOrMessages: readonly [(e: {
    prompt?: string;
    messages?: unknown[];
}) => boolean, {
    readonly message: 'give exactly one of "prompt" or "messages"';
}];
