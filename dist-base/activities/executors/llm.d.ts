import { type ExecutorContext } from './types';
/**
 * `{{outputs.<key>}}` in a prompt is replaced by that dependency's output, and
 * `{{outputs.<key>.<field>...}}` by a field of it (`{{outputs.draft.content}}` is an llm task's answer).
 */
export declare function renderPrompt(template: string, outputs: Record<string, unknown>): string;
/** Status codes worth another attempt: rate limits, timeouts and the provider's own errors. */
export declare const retryableStatus: (status: number) => boolean;
/**
 * OpenAI-compatible chat completions. The base URL and the key come from the worker's config
 * and environment, never from the plan, so the key never reaches workflow history.
 */
export declare const llmExecutor: import("./define").DefinedExecutor<{
    model: string;
    prompt?: string | undefined;
    messages?: {
        role: "assistant" | "system" | "user";
        content: string;
    }[] | undefined;
    maxTokens?: number | undefined;
    timeoutMs?: number | undefined;
}>;
/** The response body, read up to `max` bytes and no further. */
export declare function readBounded(response: Response, max: number): Promise<string>;
/** The inbox as one user message: who sent what, in order. */
export declare function inboxPrompt(inbox: ExecutorContext['inbox']): string;
