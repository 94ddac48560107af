import { count, record, text, type CliAdapter, type CliEvent, type CliParser } from './adapter';

/**
 * Codex CLI, `codex exec --json` (written against codex-cli 0.4x, docs:
 * https://developers.openai.com/codex/noninteractive and codex-rs/exec/src/exec_events.rs).
 * JSON Lines:
 * - `{"type":"thread.started","thread_id":...}` (the session id `codex exec resume` takes)
 * - `{"type":"turn.started"}`, then `item.started` / `item.updated` / `item.completed` with
 *   `item: {id, type: "agent_message"|"reasoning"|"command_execution"|"file_change"|
 *   "mcp_tool_call"|"web_search"|"todo_list"|"error", ...}`
 * - `{"type":"turn.completed","usage":{"input_tokens","cached_input_tokens","output_tokens"}}`
 *   or `{"type":"turn.failed","error":{"message"}}`; `{"type":"error","message"}` for a stream error.
 * No result line: the last agent message is the answer. The prompt is read from stdin (`-`);
 * `--model`; resume is the subcommand `codex exec resume <thread_id>`.
 */
export const codex: CliAdapter = {
  resumeAnywhere: true,
  invocation({ prompt, model, resume, args }) {
    return {
      args: [
        'exec',
        '--json',
        ...(model ? [`--model=${model}`] : []),
        ...args,
        ...(resume ? ['resume', resume] : []),
        '-',
      ],
      stdin: prompt,
    };
  },
  parser: () => new CodexParser(),
};

/** Item types that are the agent acting (a tool call), by the name its `agent:tool` event gets. */
const TOOL_ITEMS: Record<string, string> = {
  command_execution: 'shell',
  file_change: 'apply_patch',
  mcp_tool_call: 'mcp',
  web_search: 'web_search',
};

class CodexParser implements CliParser {
  private tools: string[] = [];
  private answer = '';
  private error: string | undefined;
  private completed = false;

  parse(event: Record<string, unknown>): CliEvent[] | null {
    switch (event.type) {
      case 'thread.started':
        return text(event.thread_id) ? [{ kind: 'session', id: text(event.thread_id) }] : [];
      case 'turn.started':
      case 'item.updated':
        return [];
      case 'item.started':
      case 'item.completed':
        return this.item(record(event.item), event.type === 'item.completed');
      case 'turn.completed': {
        this.completed = true;
        const u = record(event.usage);
        const cached = count(u.cached_input_tokens);
        const tools = this.tools;
        this.tools = [];
        // input_tokens counts the cached ones too.
        const usage = {
          inputTokens: Math.max(0, count(u.input_tokens) - cached),
          outputTokens: count(u.output_tokens),
          cacheTokens: cached,
        };
        return [{ kind: 'turn', usage, tools }];
      }
      case 'turn.failed':
        this.error = text(record(event.error).message) || 'codex: the turn failed';
        return [];
      case 'error':
        this.error = text(event.message) || 'codex: stream error';
        return [];
      default:
        return null;
    }
  }

  end(): CliEvent[] {
    if (this.error !== undefined || !this.completed) {
      const error = this.error ?? 'codex ended without completing its turn';
      return [{ kind: 'result', ok: false, content: this.answer, error }];
    }
    return [{ kind: 'result', ok: true, content: this.answer }];
  }

  private item(item: Record<string, unknown>, completed: boolean): CliEvent[] {
    const id = text(item.id);
    const type = text(item.type);
    const tool = Object.hasOwn(TOOL_ITEMS, type) ? TOOL_ITEMS[type] : undefined;
    if (tool) {
      const name = type === 'mcp_tool_call' ? `${text(item.server)}__${text(item.tool)}` : tool;
      if (!completed) {
        this.tools.push(name);
        const command = text(item.command);
        return [{ kind: 'tool-start', id, name, ...(command ? { command } : {}) }];
      }
      const failed = item.status === 'failed' || (typeof item.exit_code === 'number' && item.exit_code !== 0);
      return [{ kind: 'tool-end', id, ok: !failed }];
    }
    if (completed && type === 'agent_message' && text(item.text)) {
      this.answer = text(item.text);
      return [{ kind: 'text', text: this.answer }];
    }
    return [];
  }
}
