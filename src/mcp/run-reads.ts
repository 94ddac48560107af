/**
 * A run read as `teamrun status` and `teamrun tasks` read it (open from its queries, closed from
 * its result), with the CLI's failures turned into refusals an agent can act on.
 */
import type { TasksQuery, TaskView } from '../contract';
import { CliError } from '../operator/context';
import { RunReader, type RunOverview } from '../operator/run-view';
import { resolveRunId } from '../operator/tree';
import { McpRefusal, runHandle, type McpContext } from './context';

/** A tool's run, by its id or by its path in a tree of teams (`root/key/key`): exactly one of them. */
export async function resolveRunTarget(ctx: McpContext, args: { runId?: string; path?: string }): Promise<string> {
  if ((args.runId === undefined) === (args.path === undefined))
    throw new McpRefusal('invalid_request', 'give either runId or path (root/key/key), not both or neither');
  if (args.runId !== undefined) return args.runId;
  try {
    return await resolveRunId(ctx.client, args.path!);
  } catch (err) {
    // A path that names no run is the caller's to fix, not a server that is down.
    if (err instanceof CliError) throw new McpRefusal('not_found', err.message);
    throw err;
  }
}

export async function readOverview(ctx: McpContext, id: string): Promise<RunOverview> {
  await runHandle(ctx, id);
  return unavailableIfCli(() => new RunReader(ctx.client, id).overview());
}

export async function readTasks(ctx: McpContext, id: string, query: TasksQuery): Promise<TaskView[]> {
  await runHandle(ctx, id);
  return unavailableIfCli(() => new RunReader(ctx.client, id).tasks(query));
}

/** The reader's own errors say what is wrong with the run (no worker answers, a failing workflow task). */
async function unavailableIfCli<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof CliError) throw new McpRefusal('unavailable', err.message);
    throw err;
  }
}
