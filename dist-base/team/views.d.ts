/**
 * Turns a task's internal state into its public view (`TaskView`, declared in src/contract).
 * Reads state, never changes it; what a view shows is the contract's call, not this file's.
 */
import type { TaskView } from '../contract';
import type { TaskSpec } from '../plan/schema';
import type { TaskState } from './types';
export type { TaskView };
export declare function taskView(task: TaskState, spec: TaskSpec): TaskView;
