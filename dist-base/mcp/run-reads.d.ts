/**
 * A run read as `teamrun status` and `teamrun tasks` read it (open from its queries, closed from
 * its result), with the CLI's failures turned into refusals an agent can act on.
 */
import type { TasksQuery, TaskView } from '../contract';
import { type RunOverview } from '../cli/run-view';
import { type McpContext } from './context';
export declare function readOverview(ctx: McpContext, id: string): Promise<RunOverview>;
export declare function readTasks(ctx: McpContext, id: string, query: TasksQuery): Promise<TaskView[]>;
