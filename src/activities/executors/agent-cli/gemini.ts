import { count, record, text, type CliAdapter, type CliEvent, type CliParser } from './adapter';

/**
 * Gemini CLI, `gemini --output-format stream-json` (written against gemini-cli 0.1x, docs:
 * https://geminicli.com/docs/cli/headless/ and packages/core/src/output/types.ts). JSON Lines:
 * - `{"type":"init","session_id","model"}`
 * - `{"type":"message","role":"user"|"assistant","content","delta"?}` (assistant deltas add up)
 * - `{"type":"tool_use","tool_name","tool_id","parameters"}`, `{"type":"tool_result","tool_id","status"}`
 * - `{"type":"error","severity","message"}`: non-fatal
 * - `{"type":"result","status":"success"|"error","error"?:{"message"},"stats":{"input_tokens",
 *   "output_tokens","cached","tool_calls",...}}` last.
 * Usage comes only with the result: the run is charged then. `--prompt=<text>`, `--model=<name>`
 * (one token each: the value cannot be read as a flag),
 * `--resume <session_id>`.
 */
export const gemini: CliAdapter = {
  resumeAnywhere: false,
  invocation({ prompt, model, resume, args }) {
    return {
      args: [
        '--output-format',
        'stream-json',
        ...(model ? [`--model=${model}`] : []),
        ...(resume ? ['--resume', resume] : []),
        ...args,
        `--prompt=${prompt}`,
      ],
    };
  },
  parser: () => new GeminiParser(),
};

class GeminiParser implements CliParser {
  private model: string | undefined;
  private answer = '';
  private tools: string[] = [];
  private ended = false;

  parse(event: Record<string, unknown>): CliEvent[] | null {
    switch (event.type) {
      case 'init':
        this.model = text(event.model) || undefined;
        return text(event.session_id) ? [{ kind: 'session', id: text(event.session_id) }] : [];
      case 'message': {
        if (event.role !== 'assistant') return [];
        this.answer = event.delta === true ? this.answer + text(event.content) : text(event.content);
        return [{ kind: 'text', text: this.answer }];
      }
      case 'tool_use': {
        const name = text(event.tool_name) || 'tool';
        this.tools.push(name);
        const command = text(record(event.parameters).command);
        return [{ kind: 'tool-start', id: text(event.tool_id), name, ...(command ? { command } : {}) }];
      }
      case 'tool_result':
        return [{ kind: 'tool-end', id: text(event.tool_id), ok: event.status === 'success' }];
      case 'error':
        return [];
      case 'result':
        return this.result(event);
      default:
        return null;
    }
  }

  end(): CliEvent[] {
    if (this.ended) return [];
    return [{ kind: 'result', ok: false, content: this.answer, error: 'gemini ended without a result' }];
  }

  private result(event: Record<string, unknown>): CliEvent[] {
    this.ended = true;
    const stats = record(event.stats);
    const cached = count(stats.cached);
    const usage = {
      inputTokens: Math.max(0, count(stats.input_tokens) - cached),
      outputTokens: count(stats.output_tokens),
      cacheTokens: cached,
      ...(this.model ? { model: this.model.slice(0, 200) } : {}),
    };
    const ok = event.status === 'success';
    const error = ok ? undefined : text(record(event.error).message) || 'gemini ended with an error';
    return [
      { kind: 'turn', usage, tools: this.tools },
      { kind: 'result', ok, content: this.answer, ...(error ? { error } : {}) },
    ];
  }
}
