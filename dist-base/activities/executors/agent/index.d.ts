export declare const agentExecutor: import("../define").DefinedExecutor<{
    model: string;
    instructions?: string | undefined;
    prompt?: string | undefined;
    messages?: {
        role: "assistant" | "system" | "user";
        content: string;
    }[] | undefined;
    tools?: string[] | undefined;
    maxTurns?: number | undefined;
    maxToolCalls?: number | undefined;
    maxTokens?: number | undefined;
    turnTimeoutMs?: number | undefined;
    toolTimeoutMs?: number | undefined;
}>;
