import { type CliAdapter } from './adapter';
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
export declare const gemini: CliAdapter;
