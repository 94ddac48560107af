import { type CliAdapter } from './adapter';
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
export declare const codex: CliAdapter;
