import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { TeamRunHandle } from '../../src/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import {
  spawnWorkerProcess,
  startRun,
  testConfig,
  uniqueQueue,
  waitFor,
  type TestWorker,
  type WorkerProcess,
} from '../helpers/env';
import { hostPidsWithEnv } from '../helpers/processes';
import { workerForTest } from '../helpers/scenario';
import { historyAttempts, type HistoryAttempt } from '../helpers/history';

export const TTL_MS = 2_000;
export const root = path.resolve(__dirname, '..', '..');

/**
 * The tests of this family ask which worker process runs an attempt: its shell's `$PPID` (recordPids), compared with
 * the worker they spawned. That is a host pid, and under the worker's default sandbox a task has a PID namespace of
 * its own (its `$PPID` is bwrap's init), so their workers run with the sandbox off: worker processes with this
 * config file, in-process survivors with `HOST_PIDS_CONFIG`.
 */
export const HOST_PIDS_WORKER_YAML = path.join(__dirname, '..', 'helpers', 'worker-host-pids.yaml');
export const HOST_PIDS_CONFIG = () => testConfig({ sandbox: { ...testConfig().worker.sandbox, mode: 'off' } });

/** A temp dir for one test: pid files, fenced db, go files. Orphaned shells in it are killed at the end. */
export function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-leases-'));
  onTestFinished(() => {
    // A killed worker leaves its shells running (they live in their own process group): end them, found by their
    // attempt's TEAMRUN_LEASE_ID (a pid a sandboxed shell wrote would be its namespace's, not the host's).
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.pids'))) {
      const [pgid, , leaseId] = readFileSync(path.join(dir, file), 'utf8').trim().split(' ');
      const pids = leaseId ? hostPidsWithEnv(`TEAMRUN_LEASE_ID=${leaseId}`) : [];
      for (const target of pids.includes(Number(pgid)) ? [-Number(pgid), ...pids] : pids) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/**
 * The first line of every test shell: records the shell's process group and its parent, the worker process that
 * runs the attempt, and the attempt's lease id, in `<dir>/<key>-<attempt>.pids`.
 */
export function recordPids(dir: string): string {
  return `echo "$$ $PPID $TEAMRUN_LEASE_ID" > "${dir}/$TEAMRUN_TASK_KEY-$TEAMRUN_ATTEMPT.pids.tmp" && mv "${dir}/$TEAMRUN_TASK_KEY-$TEAMRUN_ATTEMPT.pids.tmp" "${dir}/$TEAMRUN_TASK_KEY-$TEAMRUN_ATTEMPT.pids"`;
}

/** The pid of the worker process running attempt `attempt` of `key`, once its shell has started. */
export function pidRunning(dir: string, key: string, attempt: number, timeoutMs = 30_000): Promise<number> {
  const file = path.join(dir, `${key}-${attempt}.pids`);
  const pid = () => (existsSync(file) ? Number(readFileSync(file, 'utf8').split(' ')[1]) : null);
  return waitFor(`attempt ${attempt} of "${key}" to start its shell`, pid, timeoutMs);
}

/** An in-process worker on `taskQueue`, to take over from a worker process the test breaks. */
export function survivor(taskQueue: string, identity: string): Promise<TestWorker> {
  return workerForTest({ taskQueue, identity, config: HOST_PIDS_CONFIG() });
}

/** Real worker processes on `taskQueue`; whatever is left of them is killed when the test ends. */
export async function spawnWorkers(
  taskQueue: string,
  identities: string[],
  address?: string,
  config?: string,
): Promise<WorkerProcess[]> {
  const workers = await Promise.all(
    identities.map((identity) =>
      spawnWorkerProcess({ taskQueue, identity, address, config: config ?? HOST_PIDS_WORKER_YAML }),
    ),
  );
  onTestFinished(async () => {
    await Promise.all(workers.map(stopForGood));
  });
  return workers;
}

export async function spawnWorker(
  taskQueue: string,
  identity: string,
  address?: string,
  config?: string,
): Promise<WorkerProcess> {
  return (await spawnWorkers(taskQueue, [identity], address, config))[0];
}

async function stopForGood(worker: WorkerProcess): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill('SIGCONT');
  worker.child.kill('SIGKILL');
  await worker.exited;
}

/** Starts a run on its own workflow id; one the test leaves open is terminated when it ends. */
export async function startLeaseRun(plan: TeamPlanInput, taskQueue: string): Promise<TeamRunHandle> {
  const handle = await startRun(plan, taskQueue, uniqueQueue(plan.name));
  onTestFinished(async () => {
    const { status } = await handle.describe();
    if (status.name === 'RUNNING') await handle.terminate('test finished');
  });
  return handle;
}

/** Waits until the server has a heartbeat from the attempt, so the worker's identity is on record. */
export function heartbeatReached(handle: TeamRunHandle, activityId: string) {
  return waitFor(`a heartbeat from ${activityId}`, async () => {
    const { raw } = await handle.describe();
    return raw.pendingActivities?.find((a) => a.activityId === activityId)?.lastHeartbeatTime;
  });
}

export { eventsOf } from '../helpers/scenario';

export async function taskOf(handle: TeamRunHandle, key: string) {
  return (await handle.query(msg.tasksQuery)).find((t) => t.key === key)!;
}

/** `<key>#<token>` -> key and token. */
export function attemptId(activityId: string): { key: string; token: number } {
  const hash = activityId.lastIndexOf('#');
  return { key: activityId.slice(0, hash), token: Number(activityId.slice(hash + 1)) };
}

/** The attempts of each task as the server's history records them, by task key. */
export async function attemptsByTask(handle: TeamRunHandle): Promise<Map<string, HistoryAttempt[]>> {
  const byTask = new Map<string, HistoryAttempt[]>();
  for (const attempt of await historyAttempts(handle)) {
    if (attempt.activityType !== msg.ACTIVITY_TYPE) continue;
    const { key } = attemptId(attempt.activityId);
    byTask.set(key, [...(byTask.get(key) ?? []), attempt]);
  }
  return byTask;
}

/** How many times the history says each task's `runTask` completed: a settled success is exactly one. */
export async function completionsByTask(handle: TeamRunHandle): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [key, attempts] of await attemptsByTask(handle)) {
    counts[key] = attempts.filter((a) => a.outcome === 'completed').length;
  }
  return counts;
}

/** Prints a measured figure so it shows in the test output. */
export function report(line: string): void {
  process.stdout.write(`[leases] ${line}\n`);
}
