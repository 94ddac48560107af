/**
 * `hooks.teammateIdle`: each hook the run asks for runs as an activity of its own; the run waits
 * for them before it closes or hands over. A hook never touches a task.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { TeamActivities } from '../activities/interface';
import type { ExecutorSpec } from '../plan/schema';
import type { IdleHookRequest } from '../team/members';
import { hookTimeoutMs } from '../plan/lease-pace';
import type { TeamRun } from '../team/run';

export class IdleHooks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly run: TeamRun) {}

  /** Starts the hooks the run asked for since the last call. */
  start(): void {
    const { run } = this;
    for (const hook of run.drainIdleHooks()) {
      const done = runIdleHook(run.workflowId, hook).then(
        () => run.hookEnded(hook, { ok: true }, Date.now()),
        (err: unknown) => run.hookEnded(hook, { ok: false, error: errorText(err) }, Date.now()),
      );
      this.running.add(done);
      // Dropped from the set when it ends; `drained` awaits the same promise, so nothing is lost.
      void done.finally(() => this.running.delete(done));
    }
  }

  /** Resolves when every hook started so far has ended. */
  drained(): Promise<void[]> {
    return Promise.all(this.running);
  }
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? err.cause.message : err.message;
}

/** One `hooks.teammateIdle` run: the `runTask` activity with the member record as its input, bounded in time. */
async function runIdleHook(workflowId: string, hook: IdleHookRequest & { executor: ExecutorSpec }): Promise<void> {
  const { runTask } = proxyActivities<TeamActivities>({
    activityId: `hook:teammateIdle:${hook.member.holder}#${hook.seq}`,
    startToCloseTimeout: hookTimeoutMs(hook.executor),
    retry: { maximumAttempts: 1 },
    summary: `teammateIdle hook · ${hook.member.holder}`,
  });
  await runTask({
    workflowId,
    taskKey: `hook:teammateIdle:${hook.member.holder}`,
    title: `teammateIdle hook for ${hook.member.holder}`,
    attempt: hook.seq,
    fencingToken: hook.seq,
    leaseId: `${workflowId}/hook:teammateIdle/${hook.seq}`,
    holder: hook.member.holder,
    executor: hook.executor,
    dependencyOutputs: { member: hook.member },
  });
}
