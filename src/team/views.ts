import type { TaskSpec } from '../plan/schema';
import type { TaskState, TaskStatus, UsageTotals } from './types';

export interface TaskView {
  key: string;
  title: string;
  status: TaskStatus;
  attempts: number;
  fencingToken: number;
  dependsOn: string[];
  holder: string | null;
  startedAt: number | null;
  settledAt: number | null;
  lastError: string | null;
  skipReason: string | null;
  usage: UsageTotals;
  output?: unknown;
  /** The task that added this one, or null. */
  parent: string | null;
  /** Parent chain length from a plan task (0 for plan tasks). */
  depth: number;
}

export function taskView(task: TaskState, spec: TaskSpec): TaskView {
  const view: TaskView = {
    key: task.key,
    title: spec.title ?? task.key,
    status: task.status,
    attempts: task.attempts,
    fencingToken: task.fencingToken,
    dependsOn: spec.dependsOn,
    holder: task.holder,
    startedAt: task.startedAt,
    settledAt: task.status === 'leased' || task.status === 'ready' ? null : task.settledAt,
    lastError: task.lastError,
    skipReason: task.skipReason,
    usage: task.usage,
    parent: task.parent ?? null,
    depth: task.depth ?? 0,
  };
  if (task.output !== undefined) view.output = task.output;
  return view;
}
