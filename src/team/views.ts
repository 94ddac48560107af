/**
 * Turns a task's internal state into its public view (`TaskView`, declared in src/contract).
 * Reads state, never changes it; what a view shows is the contract's call, not this file's.
 */
import { childWorkflowId } from './child-id';
import { outcomeOf } from './outcome';
import type { TaskView } from '../contract';
import type { TaskSpec } from '../plan/schema';
import type { TaskState } from './types';

export type { TaskView };

/** `runId`: the run's workflow id, which names a `team` task's child run (`child`). */
export function taskView(task: TaskState, spec: TaskSpec, runId?: string): TaskView {
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
  const outcome = outcomeOf(task.output);
  if (outcome) view.outcome = outcome;
  if (task.waiting !== undefined && task.status === 'ready') view.waiting = task.waiting;
  if (runId !== undefined && spec.executor.kind === 'team' && task.fencingToken > 0) {
    view.child = childWorkflowId(runId, task.key, task.fencingToken);
  }
  return view;
}
