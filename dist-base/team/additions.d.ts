/**
 * Tasks added while the run runs: by a person or a task through the `addTasks` update, or by
 * the attempt that settles a task with `allowSpawn` (`::teamrun-tasks::` lines, an llm answer's
 * `tasks`). Checks them as a plan's graph is checked, applies the spawn limits and appends them
 * to the graph; the record of requests (idempotency) is spawn.ts's.
 */
import type { AddTasksVerdict } from '../contract';
import { type AddTasksRequest } from '../plan/requests/add-tasks';
import type { RunContext } from './context';
import type { Attempt } from './types';
/**
 * Every check of an `addTasks` request, in order: its shape; a task adding work must name
 * itself as `parent`, send its current fencing token (a stale attempt adds nothing), come from
 * its attempt (checkTaskClaim) and have `allowSpawn`; anyone else is checked against governance;
 * then the run must take work, the tasks pass the plan's checks against the running graph, and the spawn limits hold. A
 * requestId already taken answers as it did. Throws `TeamControlError`.
 */
export declare function validateAddTasks(run: RunContext, payload: unknown): {
    request: AddTasksRequest;
    depth: number;
};
export declare function addTasks(run: RunContext, payload: unknown, now: number): AddTasksVerdict;
/**
 * What the attempt that settles task `i` successfully asked to add: added now, under the task's
 * name and fencing token. Over a spawn limit (or once the run takes no work) it is a `limit`
 * (the task goes to adjudication and nothing is added); tasks that are not a valid addition are
 * `invalid`, and a task without `allowSpawn` is `forbidden`. Null when it was added.
 */
export declare function spawnOnSettle(run: RunContext, i: number, attempt: Attempt, tasks: unknown, now: number): {
    kind: 'limit' | 'invalid' | 'forbidden';
    message: string;
} | null;
