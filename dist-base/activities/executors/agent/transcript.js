"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Transcript = void 0;
exports.parseArgs = parseArgs;
class Transcript {
    /** Model calls answered, by every attempt. */
    turns = 0;
    /** Tool calls run (with a result), by every attempt. */
    toolCalls = 0;
    /** The last value `teamrun__set_output` set, if any. */
    output;
    lastModel;
    started = new Set();
    finished = new Set();
    entries = [];
    constructor(entries) {
        for (const entry of entries)
            this.add(entry);
    }
    add(entry) {
        this.entries.push(entry);
        if (entry.kind === 'model') {
            this.turns = entry.turn;
            this.lastModel = entry.message;
            this.started.clear();
            this.finished.clear();
        }
        else if (entry.kind === 'tool-start') {
            this.started.add(entry.id);
        }
        else if (entry.kind === 'tool-result') {
            this.finished.add(entry.id);
            this.toolCalls++;
            if (entry.ok && entry.name === 'teamrun__set_output') {
                const call = this.lastModel?.tool_calls?.find((c) => c.id === entry.id);
                this.output = { value: parseArgs(call?.function.arguments).output };
            }
        }
    }
    /** The answer that ended the loop: the last model call asked for no tool. */
    get finalAnswer() {
        return this.lastModel && !this.lastModel.tool_calls?.length ? this.lastModel : undefined;
    }
    /** The last answer's tool calls still without a result, each with whether one had begun (a crash cut it). */
    pendingCalls() {
        return (this.lastModel?.tool_calls ?? [])
            .filter((call) => !this.finished.has(call.id))
            .map((call) => ({ call, begun: this.started.has(call.id) }));
    }
    /** The conversation in OpenAI's shape. */
    messages() {
        const out = [];
        for (const entry of this.entries) {
            switch (entry.kind) {
                case 'start':
                    out.push(...entry.messages);
                    break;
                case 'inbox':
                    out.push({ role: 'user', content: entry.content });
                    break;
                case 'steer':
                    out.push({ role: 'user', content: `Guidance from ${entry.actor ?? 'an operator'}: ${entry.text}` });
                    break;
                case 'model':
                    out.push(entry.message);
                    break;
                case 'tool-result':
                    out.push({ role: 'tool', tool_call_id: entry.id, content: entry.content });
                    break;
                case 'tool-start':
                    break;
            }
        }
        return out;
    }
}
exports.Transcript = Transcript;
/** A call's arguments as an object; anything else (not JSON, not an object) is `{}`. */
function parseArgs(text) {
    try {
        const value = JSON.parse(text ?? '');
        return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
    }
    catch {
        return {};
    }
}
