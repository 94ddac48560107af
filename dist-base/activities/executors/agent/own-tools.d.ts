/**
 * teamrun's own tools for agents (CONTRACT: `teamrun__send_message`, `teamrun__read_inbox`,
 * `teamrun__add_tasks` with `allowSpawn`, `teamrun__set_output`). The first three go through the
 * attempt gateway, as a shell task's `teamrun send`, `inbox` and `add-tasks` do; set_output only
 * records its value in the transcript.
 */
import { type TeamrunToolName } from '../../../plan/agent';
import type { ToolCallResult, ToolSpec } from '../../tools/types';
import { type AgentGateway } from './gateway';
/** The own tools a task may use: those it lists (or `teamrun__*`), add_tasks only with `allowSpawn`. */
export declare function ownTools(listed: readonly string[], allowSpawn: boolean): ToolSpec[];
export declare function isOwnTool(name: string): name is TeamrunToolName;
/** Runs one own tool; a refusal from the run is the tool's error, for the model to read. */
export declare function callOwnTool(name: TeamrunToolName, args: Record<string, unknown>, gateway: AgentGateway, callKey: string): Promise<ToolCallResult>;
