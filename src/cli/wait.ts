import { setTimeout as delay } from 'node:timers/promises';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { teamRunResult, type TeamRunHandle } from '../client';
import type { RunResult } from '../contract';
import { statusQuery } from '../workflows/messages';
import { CliError } from '../operator/context';
import { createProgress, type ProgressOptions } from './progress';
import { LiveFollower } from './live-lines';
import { StepFollower } from './step-lines';
import { TreeFollower } from './tree-render';

/** About twice a second: live enough to watch, cheap for the worker that answers. */
const POLL_MS = 500;

/**
 * Waits for a run's result while showing its progress from the `status` query. A workflow that
 * fails instead of returning a result (an invalid plan, a termination) becomes a CliError.
 * `leaveOnCtrlC`: Ctrl-C exits 130 with a line saying the run goes on.
 */
export async function waitForRun(
  handle: TeamRunHandle,
  progressOptions: ProgressOptions = {},
  options: { leaveOnCtrlC?: boolean; steps?: boolean; live?: Client } = {},
): Promise<RunResult> {
  const progress = createProgress(progressOptions);
  // `watch`: each agent's model turns and tool calls, a line each, under the counts.
  const steps = options.steps ? new StepFollower(handle) : null;
  // And what a model call is writing now (ctx.live), a line whenever it changed.
  const live = options.live ? new LiveFollower(options.live, handle.workflowId) : null;
  // And, for a tree of teams, the counts of each level below the run whenever they changed.
  const tree = options.live ? new TreeFollower(options.live, handle.workflowId) : null;
  let teamTasks = 0;
  const showSteps = async () => {
    try {
      for (const line of (await steps?.poll()) ?? []) progress.log(line);
      for (const line of (await live?.poll()) ?? []) progress.log(line);
      for (const line of (await tree?.poll(teamTasks)) ?? []) progress.log(line);
    } catch {
      // As for the status query: the next poll tells.
    }
  };
  // With leaveOnCtrlC (`start --wait`, `watch`), Ctrl-C stops the watching, not the run: say so,
  // and how to come back or stop it. The demo handles Ctrl-C itself (it stops its own stack).
  const interrupted = () => {
    progress.stop();
    const id = handle.workflowId;
    process.stderr.write(
      `\nteamrun: stopped watching; run ${id} goes on. ` +
        `Watch it again with \`teamrun watch ${id}\`, or stop it with \`teamrun abort ${id} --reason <why>\`\n`,
    );
    process.exit(130);
  };
  if (options.leaveOnCtrlC) process.once('SIGINT', interrupted);
  let finished = false;
  const result = teamRunResult(handle).finally(() => {
    finished = true;
  });
  // The poll loop observes `finished`; this keeps an early rejection from being reported as unhandled.
  result.catch(() => undefined);
  try {
    while (!finished) {
      try {
        const status = await handle.query(statusQuery);
        teamTasks = status.children?.total ?? 0;
        progress.update(status);
      } catch {
        // A query can fail while the run closes or before a worker picks it up; the next poll tells.
      }
      await showSteps();
      await Promise.race([delay(POLL_MS), result.catch(() => undefined)]);
    }
    const final = await result;
    // The last steps arrive with the attempt's end: read them from the closed run.
    await showSteps();
    progress.update({
      state: final.status,
      stats: final.stats,
      budget: final.budget,
      pendingAdjudications: final.adjudications.filter((a) => a.decision === null).length,
    });
    return final;
  } catch (err) {
    if (err instanceof WorkflowFailedError) {
      throw new CliError(`run ${handle.workflowId} failed: ${err.cause?.message ?? err.message}`);
    }
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    progress.stop();
  }
}
