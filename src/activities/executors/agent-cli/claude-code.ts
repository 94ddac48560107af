import { count, record, text, type CliAdapter, type CliEvent, type CliParser } from './adapter';

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
export const claudeCode: CliAdapter = {
  resumeAnywhere: false,
  invocation({ prompt, model, resume, args }) {
    return {
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        ...(model ? [`--model=${model}`] : []),
        ...(resume ? ['--resume', resume] : []),
        ...args,
      ],
      stdin: prompt,
    };
  },
  parser: () => new ClaudeParser(),
};

interface OpenMessage {
  id: string;
  model?: string;
  usage: Record<string, unknown>;
  tools: string[];
}

class ClaudeParser implements CliParser {
  private open: OpenMessage | undefined;

  parse(event: Record<string, unknown>): CliEvent[] | null {
    const events: CliEvent[] = [];
    const session = text(event.session_id);
    switch (event.type) {
      case 'system':
        if (session) events.push({ kind: 'session', id: session });
        return events;
      case 'assistant':
        return this.assistant(record(event.message));
      case 'user':
        events.push(...this.close());
        for (const block of blocks(record(event.message).content)) {
          if (block.type === 'tool_result')
            events.push({ kind: 'tool-end', id: text(block.tool_use_id), ok: block.is_error !== true });
        }
        return events;
      case 'result': {
        events.push(...this.close());
        if (session) events.push({ kind: 'session', id: session });
        const failed = event.is_error === true || (typeof event.subtype === 'string' && event.subtype !== 'success');
        const content = text(event.result);
        const cost = event.total_cost_usd;
        events.push({
          kind: 'result',
          ok: !failed,
          content,
          ...(failed ? { error: content || `claude-code ended with ${text(event.subtype) || 'an error'}` } : {}),
          ...(typeof cost === 'number' && cost >= 0 ? { costUsd: cost } : {}),
        });
        return events;
      }
      default:
        return null;
    }
  }

  end(): CliEvent[] {
    return this.close();
  }

  private assistant(message: Record<string, unknown>): CliEvent[] {
    const id = text(message.id);
    const events = this.open && this.open.id !== id ? this.close() : [];
    this.open ??= { id, model: text(message.model) || undefined, usage: {}, tools: [] };
    // Each line repeats its message's usage; the last one seen is the message's.
    if (message.usage !== undefined) this.open.usage = record(message.usage);
    for (const block of blocks(message.content)) {
      if (block.type === 'tool_use') {
        const name = text(block.name) || 'tool';
        this.open.tools.push(name);
        const command = text(record(block.input).command);
        events.push({ kind: 'tool-start', id: text(block.id), name, ...(command ? { command } : {}) });
      } else if (block.type === 'text' && text(block.text)) {
        events.push({ kind: 'text', text: text(block.text) });
      }
    }
    return events;
  }

  private close(): CliEvent[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    const u = open.usage;
    return [
      {
        kind: 'turn',
        tools: open.tools,
        usage: {
          inputTokens: count(u.input_tokens),
          outputTokens: count(u.output_tokens),
          cacheTokens: count(u.cache_creation_input_tokens) + count(u.cache_read_input_tokens),
          ...(open.model ? { model: open.model.slice(0, 200) } : {}),
        },
      },
    ];
  }
}

function blocks(content: unknown): Record<string, unknown>[] {
  return Array.isArray(content) ? content.map(record) : [];
}
