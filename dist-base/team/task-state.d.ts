/** A task's state as it enters the run, from the plan or added while it runs. Owns nothing else. */
import type { TaskState } from './types';
/** A task as it enters the run: never attempted. */
export declare function newTaskState(key: string, status: 'ready' | 'blocked', now: number): TaskState;
