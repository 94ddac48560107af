/**
 * run_status's long poll. Its answer carries a cursor: a digest of what moves in a run (state,
 * task counts, attempts started, pending adjudications, budget used). Given one back with
 * `waitMs`, the call waits until the run differs from it or closes, looking once a second with
 * one `status` query, and sends a progress notification at each look when the client asked.
 * `waitMs` without a cursor waits for a change from the run as the call finds it.
 */
import { createHash } from 'node:crypto';
import type { StatusView } from '../contract';
import { statusQuery } from '../workflows/messages';
import { runHandle, type McpContext } from './context';
import { readOverview } from './run-reads';
import type { ToolCall } from './tool';

const LOOK_EVERY_MS = 1_000;

type Moving = Pick<StatusView, 'state' | 'stats' | 'executions'> & {
  pending: number;
  used: { tasks: number; tokens: number; usd: number } | null;
};

function digest(moving: Moving): string {
  return createHash('sha256').update(JSON.stringify(moving)).digest('base64url').slice(0, 22);
}

export async function runStatus(
  ctx: McpContext,
  args: { runId: string; cursor?: string; waitMs?: number },
  call: ToolCall,
): Promise<object> {
  const handle = await runHandle(ctx, args.runId);
  const deadline = Date.now() + (args.waitMs ?? 0);
  // What the wait is for a change from: the cursor given, else the run as it stands at the call (a caller that
  // waits without a cursor means "tell me when something happens", not "answer at once").
  let since = args.cursor;
  if ((args.waitMs ?? 0) > 0) {
    for (let look = 1; Date.now() < deadline && !call.signal.aborted; look++) {
      if ((await handle.describe()).status.name !== 'RUNNING') break;
      const status = await handle.query(statusQuery);
      const now = digest(movingOf({ ...status, pending: status.pendingAdjudications, used: status.budget.used }));
      since ??= now;
      if (now !== since) break;
      const done = status.stats.succeeded + status.stats.failed + status.stats.skipped;
      await call.progress(look, `${status.state}: ${done} of ${status.stats.total} tasks settled, waiting`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOOK_EVERY_MS, deadline - Date.now())));
    }
  }
  const overview = await readOverview(ctx, args.runId);
  const cursor = digest(
    movingOf({
      ...overview,
      stats: overview.stats,
      executions: overview.executions,
      pending: overview.pendingAdjudications.length,
      used: overview.budget?.used ?? null,
    }),
  );
  return { ...overview, cursor, changed: cursor !== since };
}

/** The same fields in the same order whether read from the `status` query or a closed run's result. */
function movingOf(from: {
  state: string;
  stats: StatusView['stats'] | null;
  executions: number | null;
  pending: number;
  used: { tasks: number; tokens: number; usd: number } | null;
}): Moving {
  return {
    state: from.state as StatusView['state'],
    stats: from.stats as StatusView['stats'],
    executions: from.executions ?? 0,
    pending: from.pending,
    used: from.used ? { tasks: from.used.tasks, tokens: from.used.tokens, usd: from.used.usd } : null,
  };
}
