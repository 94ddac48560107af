import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type { TeamActivities } from '../src/activities/interface';

export interface BaselineInput {
  /** One activity per key, run as that task (the keys of the plan the team run gets). */
  keys: string[];
  /** How many run at once (the team run's `teammates`). */
  concurrency: number;
  /** Heartbeat timeout of every activity (the team run's lease TTL). */
  ttlMs: number;
  /** `dependsOn[i]` holds the indices activity `i` waits for; absent = all independent. */
  dependsOn?: number[][];
}

/**
 * The bare Temporal baseline the benchmarks compare `teamRun` with: the same `runTask` activity
 * with the same options, once per key, `concurrency` at once, after its dependencies if it has
 * any, and nothing else (no state machine, no queries, no search attributes, no continue-as-new).
 */
export async function baselineRun(input: BaselineInput): Promise<{ completed: number }> {
  const { runTask } = proxyActivities<TeamActivities>({
    heartbeatTimeout: input.ttlMs,
    startToCloseTimeout: '1h',
    retry: { maximumAttempts: 1 },
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  });
  let free = input.concurrency;
  const waiting: Array<() => void> = [];
  const slot = async () => {
    if (free > 0) {
      free -= 1;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  const done: Array<Promise<void>> = [];
  for (let i = 0; i < input.keys.length; i++) {
    const deps = (input.dependsOn?.[i] ?? []).map((d) => done[d]);
    done.push(
      (async () => {
        await Promise.all(deps);
        await slot();
        try {
          await runTask({
            workflowId: 'baseline',
            taskKey: input.keys[i],
            title: input.keys[i],
            attempt: 1,
            fencingToken: 1,
            leaseId: `baseline/${input.keys[i]}/1`,
            holder: 'baseline',
            executor: { kind: 'noop' },
            dependencyOutputs: {},
          });
        } finally {
          release();
        }
      })(),
    );
  }
  await Promise.all(done);
  return { completed: input.keys.length };
}
