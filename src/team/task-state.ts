/** A task's state as it enters the run, from the plan or added while it runs. Owns nothing else. */
import type { TaskState } from './types';

/** A task as it enters the run: never attempted. */
export function newTaskState(key: string, status: 'ready' | 'blocked', now: number): TaskState {
  return {
    key,
    status,
    attempts: 0,
    uncounted: 0,
    fencingToken: 0,
    current: null,
    holder: null,
    previousLease: null,
    readyAt: now,
    startedAt: null,
    settledAt: null,
    lastError: null,
    skipReason: null,
    usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
  };
}
