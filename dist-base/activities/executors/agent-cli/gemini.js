"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.gemini = void 0;
const adapter_1 = require("./adapter");
/**
 * Gemini CLI, `gemini --output-format stream-json` (written against gemini-cli 0.1x, docs:
 * https://geminicli.com/docs/cli/headless/ and packages/core/src/output/types.ts). JSON Lines:
 * - `{"type":"init","session_id","model"}`
 * - `{"type":"message","role":"user"|"assistant","content","delta"?}` (assistant deltas add up)
 * - `{"type":"tool_use","tool_name","tool_id","parameters"}`, `{"type":"tool_result","tool_id","status"}`
 * - `{"type":"error","severity","message"}`: non-fatal
 * - `{"type":"result","status":"success"|"error","error"?:{"message"},"stats":{"input_tokens",
 *   "output_tokens","cached","tool_calls",...}}` last.
 * Usage comes only with the result: the run is charged then. `--prompt <text>`, `--model`,
 * `--resume <session_id>`.
 */
exports.gemini = {
    resumeAnywhere: false,
    invocation({ prompt, model, resume, args }) {
        return {
            args: [
                '--output-format',
                'stream-json',
                ...(model ? ['--model', model] : []),
                ...(resume ? ['--resume', resume] : []),
                ...args,
                '--prompt',
                prompt,
            ],
        };
    },
    parser: () => new GeminiParser(),
};
class GeminiParser {
    model;
    answer = '';
    tools = [];
    ended = false;
    parse(event) {
        switch (event.type) {
            case 'init':
                this.model = (0, adapter_1.text)(event.model) || undefined;
                return (0, adapter_1.text)(event.session_id) ? [{ kind: 'session', id: (0, adapter_1.text)(event.session_id) }] : [];
            case 'message': {
                if (event.role !== 'assistant')
                    return [];
                this.answer = event.delta === true ? this.answer + (0, adapter_1.text)(event.content) : (0, adapter_1.text)(event.content);
                return [{ kind: 'text', text: this.answer }];
            }
            case 'tool_use': {
                const name = (0, adapter_1.text)(event.tool_name) || 'tool';
                this.tools.push(name);
                return [{ kind: 'tool-start', id: (0, adapter_1.text)(event.tool_id), name }];
            }
            case 'tool_result':
                return [{ kind: 'tool-end', id: (0, adapter_1.text)(event.tool_id), ok: event.status === 'success' }];
            case 'error':
                return [];
            case 'result':
                return this.result(event);
            default:
                return null;
        }
    }
    end() {
        if (this.ended)
            return [];
        return [{ kind: 'result', ok: false, content: this.answer, error: 'gemini ended without a result' }];
    }
    result(event) {
        this.ended = true;
        const stats = (0, adapter_1.record)(event.stats);
        const cached = (0, adapter_1.count)(stats.cached);
        const usage = {
            inputTokens: Math.max(0, (0, adapter_1.count)(stats.input_tokens) - cached),
            outputTokens: (0, adapter_1.count)(stats.output_tokens),
            cacheTokens: cached,
            ...(this.model ? { model: this.model.slice(0, 200) } : {}),
        };
        const ok = event.status === 'success';
        const error = ok ? undefined : (0, adapter_1.text)((0, adapter_1.record)(event.error).message) || 'gemini ended with an error';
        return [
            { kind: 'turn', usage, tools: this.tools },
            { kind: 'result', ok, content: this.answer, ...(error ? { error } : {}) },
        ];
    }
}
