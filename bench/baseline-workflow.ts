import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import type { TeamActivities } from '../src/activities/interface';
import type { BareActivities } from './bare-activity';

export interface BaselineInput {
  /** One activity per key, run as that task (the keys of the plan the team run gets). */
  keys: string[];
  /** How many run at once (the team run's `teammates`). */
  concurrency: number;
  /** Heartbeat timeout of every activity (the team run's lease TTL). */
  ttlMs: number;
  /** `dependsOn[i]` holds the indices activity `i` waits for; absent = all independent. */
  dependsOn?: number[][];
  /** bareRun only: each activity sleeps this long (`bareSleep`) instead of returning at once. */
  sleepMs?: number;
  /** bareRun only: activity `i` runs `commands[i]` (`bareShell`), given its dependencies' outputs. */
  commands?: string[];
}

/**
 * The bare Temporal baseline the benchmarks compare `teamRun` with: the same `runTask` activity
 * with the same options, once per key, `concurrency` at once, after its dependencies if it has
 * any, and nothing else (no state machine, no queries, no search attributes, no continue-as-new).
 */
export async function baselineRun(input: BaselineInput): Promise<{ completed: number; failed: number }> {
  const { runTask } = proxyActivities<TeamActivities>(sameOptions(input));
  return fanOut(input, (key) =>
    runTask({
      workflowId: 'baseline',
      taskKey: key,
      title: key,
      attempt: 1,
      fencingToken: 1,
      leaseId: `baseline/${key}/1`,
      holder: 'baseline',
      executor: { kind: 'noop' },
      dependencyOutputs: {},
    }),
  );
}

/**
 * The bare Temporal baseline: what a user would write instead of teamrun, a fan-out of a
 * trivial activity (`bareNoop`, which returns at once and never heartbeats) with the options a
 * teamrun attempt has (one attempt, heartbeat timeout, wait for cancellation), on the same
 * worker (same throttle, same slots).
 */
export async function bareRun(input: BaselineInput): Promise<{ completed: number; failed: number }> {
  const { bareNoop, bareSleep, bareShell } = proxyActivities<BareActivities>(sameOptions(input));
  const { commands, sleepMs } = input;
  return fanOut(input, (key, i, inputs) => {
    if (commands) return bareShell(key, commands[i], inputs).then((r) => r.output);
    return sleepMs === undefined ? bareNoop(key) : bareSleep(key, sleepMs);
  });
}

function sameOptions(input: BaselineInput) {
  return {
    heartbeatTimeout: input.ttlMs,
    startToCloseTimeout: '1h',
    retry: { maximumAttempts: 1 },
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  } as const;
}

async function fanOut(
  input: BaselineInput,
  run: (key: string, index: number, inputs: Record<string, unknown>) => Promise<unknown>,
): Promise<{ completed: number; failed: number }> {
  // A failed activity (e.g. timed out) is counted, not fatal: the fan-out still finishes, for its timing.
  let failed = 0;
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
  const done: Array<Promise<unknown>> = [];
  for (let i = 0; i < input.keys.length; i++) {
    const deps = input.dependsOn?.[i] ?? [];
    done.push(
      (async () => {
        const outputs = await Promise.all(deps.map((d) => done[d]));
        await slot();
        try {
          return await run(input.keys[i], i, Object.fromEntries(deps.map((d, j) => [input.keys[d], outputs[j]])));
        } catch {
          failed += 1;
          return null;
        } finally {
          release();
        }
      })(),
    );
  }
  await Promise.all(done);
  return { completed: input.keys.length - failed, failed };
}
