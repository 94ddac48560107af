/**
 * One model call of an agent: an OpenAI-compatible chat completion with `tools` (function
 * calling). A transport error, an HTTP error or an answer that is not a chat completion throws an
 * ExecutorError (retryable as for `llm`); aborting `signal` aborts the request.
 */
import type { Usage } from '../../../plan/schema';
import type { AssistantMessage } from '../../../agent/types';
export interface ChatRequest {
    url: string;
    apiKey: string | undefined;
    model: string;
    messages: unknown[];
    tools: Array<{
        type: 'function';
        function: {
            name: string;
            description?: string;
            parameters: object;
        };
    }>;
    maxTokens: number;
    idempotencyKey: string;
    maxBodyBytes: number;
    redact: (text: string) => string;
}
export interface ChatAnswer {
    message: AssistantMessage;
    usage?: Usage;
}
export declare function chat(request: ChatRequest, signal: AbortSignal, timeoutMs?: number): Promise<ChatAnswer>;
