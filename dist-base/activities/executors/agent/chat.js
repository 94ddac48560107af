"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.chat = chat;
const llm_1 = require("../llm");
const types_1 = require("../types");
async function chat(request, signal, timeoutMs) {
    const { url, redact } = request;
    const within = timeoutMs ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : signal;
    let response;
    let text;
    try {
        response = await fetch(url, {
            method: 'POST',
            headers: {
                'Content-Type': 'application/json',
                'Idempotency-Key': request.idempotencyKey,
                ...(request.apiKey ? { Authorization: `Bearer ${request.apiKey}` } : {}),
            },
            body: JSON.stringify({
                model: request.model,
                messages: request.messages,
                ...(request.tools.length ? { tools: request.tools } : {}),
                max_tokens: request.maxTokens,
            }),
            signal: within,
        });
        text = await (0, llm_1.readBounded)(response, request.maxBodyBytes);
    }
    catch (err) {
        if (signal.aborted)
            throw err;
        const timedOut = err.name === 'TimeoutError';
        throw new types_1.ExecutorError(redact(`agent model call ${url}: ${timedOut ? `timed out after ${timeoutMs} ms` : err.message}`), { type: timedOut ? 'TeamExecutorTimeout' : 'TeamLlmUnreachable' });
    }
    let body;
    try {
        body = JSON.parse(text);
    }
    catch {
        // Reported below: an answer that is not JSON is the provider's error, worth another attempt.
    }
    const usage = usageOf(body, request.model);
    if (!response.ok) {
        throw new types_1.ExecutorError(redact(`agent model call ${url}: HTTP ${response.status}: ${text.slice(0, 500)}`), {
            nonRetryable: !(0, llm_1.retryableStatus)(response.status),
            type: `TeamLlm${response.status}`,
            usage,
        });
    }
    const message = body?.choices?.[0]?.message;
    const content = message?.content;
    const calls = toolCallsOf(message?.tool_calls);
    if (!message || (content !== null && content !== undefined && typeof content !== 'string') || calls === null) {
        throw new types_1.ExecutorError(redact(`agent model call ${url}: not a chat completion (retryable): ${text.slice(0, 500)}`), { type: 'TeamLlmBadResponse', usage });
    }
    return {
        message: {
            role: 'assistant',
            content: typeof content === 'string' ? content : null,
            ...(calls.length ? { tool_calls: calls } : {}),
        },
        ...(usage ? { usage } : {}),
    };
}
function usageOf(body, model) {
    if (!body?.usage)
        return undefined;
    const cached = body.usage.prompt_tokens_details?.cached_tokens ?? 0;
    return {
        model,
        inputTokens: Math.max(0, (body.usage.prompt_tokens ?? 0) - cached),
        outputTokens: body.usage.completion_tokens ?? 0,
        cacheTokens: cached,
    };
}
/** The tool calls of an answer; null when they are not shaped as OpenAI's (the answer is then malformed). */
function toolCallsOf(value) {
    if (value === undefined || value === null)
        return [];
    if (!Array.isArray(value))
        return null;
    const calls = [];
    for (const [i, call] of value.entries()) {
        const fn = call?.function;
        if (typeof fn?.name !== 'string')
            return null;
        const id = call.id;
        calls.push({
            id: typeof id === 'string' && id.length <= 200 ? id : `call_${i}`,
            type: 'function',
            function: { name: fn.name.slice(0, 200), arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}' },
        });
    }
    return calls;
}
