import { type CliAdapter } from './adapter';
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
export declare const claudeCode: CliAdapter;
