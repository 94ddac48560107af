"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.claudeCode = void 0;
const adapter_1 = require("./adapter");
/**
 * Claude Code, `claude -p --output-format stream-json --verbose` (written against Claude Code
 * 2.x, docs: https://docs.claude.com/en/docs/claude-code/headless and the Agent SDK's message
 * types, SDKMessage). One JSON object a line:
 * - `{"type":"system","subtype":"init","session_id":...,"model":...}`
 * - `{"type":"assistant","message":{"id","model","content":[{type:"text"|"tool_use",...}],"usage":{...}}}`:
 *   one line per content block, each repeating its message's id and usage
 * - `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id","is_error"}]}}`
 * - `{"type":"result","subtype":"success"|"error_max_turns"|"error_during_execution","is_error",
 *   "result","session_id","total_cost_usd","num_turns","usage"}` last.
 * The prompt is read from stdin; `--model`, `--resume <session_id>`.
 */
exports.claudeCode = {
    resumeAnywhere: false,
    invocation({ prompt, model, resume, args }) {
        return {
            args: [
                '-p',
                '--output-format',
                'stream-json',
                '--verbose',
                ...(model ? ['--model', model] : []),
                ...(resume ? ['--resume', resume] : []),
                ...args,
            ],
            stdin: prompt,
        };
    },
    parser: () => new ClaudeParser(),
};
class ClaudeParser {
    open;
    parse(event) {
        const events = [];
        const session = (0, adapter_1.text)(event.session_id);
        switch (event.type) {
            case 'system':
                if (session)
                    events.push({ kind: 'session', id: session });
                return events;
            case 'assistant':
                return this.assistant((0, adapter_1.record)(event.message));
            case 'user':
                events.push(...this.close());
                for (const block of blocks((0, adapter_1.record)(event.message).content)) {
                    if (block.type === 'tool_result')
                        events.push({ kind: 'tool-end', id: (0, adapter_1.text)(block.tool_use_id), ok: block.is_error !== true });
                }
                return events;
            case 'result': {
                events.push(...this.close());
                if (session)
                    events.push({ kind: 'session', id: session });
                const failed = event.is_error === true || (typeof event.subtype === 'string' && event.subtype !== 'success');
                const content = (0, adapter_1.text)(event.result);
                const cost = event.total_cost_usd;
                events.push({
                    kind: 'result',
                    ok: !failed,
                    content,
                    ...(failed ? { error: content || `claude-code ended with ${(0, adapter_1.text)(event.subtype) || 'an error'}` } : {}),
                    ...(typeof cost === 'number' && cost >= 0 ? { costUsd: cost } : {}),
                });
                return events;
            }
            default:
                return null;
        }
    }
    end() {
        return this.close();
    }
    assistant(message) {
        const id = (0, adapter_1.text)(message.id);
        const events = this.open && this.open.id !== id ? this.close() : [];
        this.open ??= { id, model: (0, adapter_1.text)(message.model) || undefined, usage: {}, tools: [] };
        // Each line repeats its message's usage; the last one seen is the message's.
        if (message.usage !== undefined)
            this.open.usage = (0, adapter_1.record)(message.usage);
        for (const block of blocks(message.content)) {
            if (block.type === 'tool_use') {
                const name = (0, adapter_1.text)(block.name) || 'tool';
                this.open.tools.push(name);
                events.push({ kind: 'tool-start', id: (0, adapter_1.text)(block.id), name });
            }
            else if (block.type === 'text' && (0, adapter_1.text)(block.text)) {
                events.push({ kind: 'text', text: (0, adapter_1.text)(block.text) });
            }
        }
        return events;
    }
    close() {
        const open = this.open;
        if (!open)
            return [];
        this.open = undefined;
        const u = open.usage;
        return [
            {
                kind: 'turn',
                tools: open.tools,
                usage: {
                    inputTokens: (0, adapter_1.count)(u.input_tokens),
                    outputTokens: (0, adapter_1.count)(u.output_tokens),
                    cacheTokens: (0, adapter_1.count)(u.cache_creation_input_tokens) + (0, adapter_1.count)(u.cache_read_input_tokens),
                    ...(open.model ? { model: open.model.slice(0, 200) } : {}),
                },
            },
        ];
    }
}
function blocks(content) {
    return Array.isArray(content) ? content.map(adapter_1.record) : [];
}
