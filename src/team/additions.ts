/**
 * Tasks added while the run runs: by a person or a task through the `addTasks` update, or by
 * the attempt that settles a task with `allowSpawn` (`::teamrun-tasks::` lines, an llm answer's
 * `tasks`). Checks them as a plan's graph is checked, applies the spawn limits and appends them
 * to the graph; the record of requests (idempotency) is spawn.ts's.
 */
import { ledgerSpawnRefusal } from './ledger-tree';
import type { AddTasksVerdict } from '../contract';
import { AddTasksRequestSchema, type AddTasksRequest } from '../plan/requests/add-tasks';
import { formatPath } from '../plan/validate';
import { validateAddedTasks } from '../plan/validate-added';
import type { RunContext } from './context';
import { TeamControlError } from '../plan/requests/control';
import { callerOf } from '../plan/requests/caller';
import { checkActor, checkTaskClaim } from './governance';
import { newTaskState } from './task-state';
import { ADDED_EVENT_KEYS } from './spawn';
import type { Attempt } from './types';

/**
 * Every check of an `addTasks` request, in order: its shape; a task adding work must name
 * itself as `parent`, send its current fencing token (a stale attempt adds nothing), come from
 * its attempt (checkTaskClaim) and have `allowSpawn`; anyone else is checked against governance;
 * then the run must take work, the tasks pass the plan's checks against the running graph, and the spawn limits hold. A
 * requestId already taken answers as it did. Throws `TeamControlError`.
 */
export function validateAddTasks(run: RunContext, payload: unknown): { request: AddTasksRequest; depth: number } {
  const caller = callerOf(payload, 'addTasks');
  const checked = checkAddition(run, caller.request);
  const { request } = checked;
  if (request.parent !== undefined && request.fencingToken !== undefined) {
    const attempt = run.leases.get(request.parent);
    if (!attempt || attempt.fencingToken !== request.fencingToken) {
      throw new TeamControlError(
        'stale_attempt',
        `addTasks: fencing token ${request.fencingToken} of "${request.parent}" is not its current attempt's ` +
          `(${attempt ? attempt.fencingToken : 'none running'})`,
      );
    }
    checkTaskClaim(run.plan, caller, 'addTasks');
    if (!run.spec(run.graph.indexOf(request.parent)!).allowSpawn) {
      throw new TeamControlError(
        'forbidden',
        `addTasks: task "${request.parent}" has no "allowSpawn": true in the plan`,
      );
    }
  } else {
    checkActor(run.plan, request.actor, 'addTasks');
  }
  // A run with nothing left to do is closing: tasks added now would never run.
  if (run.phase() === 'done' && !run.spawns.earlier(request.requestId)) {
    throw new TeamControlError(
      'run_not_accepting_work',
      'addTasks: the run has finished its work and is closing; it takes no new tasks',
    );
  }
  return checked;
}

export function addTasks(run: RunContext, payload: unknown, now: number): AddTasksVerdict {
  const { request, depth } = validateAddTasks(run, payload);
  return applyAddition(run, request, depth, now);
}

/**
 * What the attempt that settles task `i` successfully asked to add: added now, under the task's
 * name and fencing token. Over a spawn limit (or once the run takes no work) it is a `limit`
 * (the task goes to adjudication and nothing is added); tasks that are not a valid addition are
 * `invalid`, and a task without `allowSpawn` is `forbidden`. Null when it was added.
 */
export function spawnOnSettle(
  run: RunContext,
  i: number,
  attempt: Attempt,
  tasks: unknown,
  now: number,
): { kind: 'limit' | 'invalid' | 'forbidden'; message: string } | null {
  if (tasks === undefined) return null;
  const key = run.graph.tasks[i].key;
  if (!run.spec(i).allowSpawn) {
    return {
      kind: 'forbidden',
      message: `task "${key}" asked to add tasks but its plan entry has no "allowSpawn": true`,
    };
  }
  const payload = {
    tasks,
    parent: key,
    fencingToken: attempt.fencingToken,
    requestId: `${key}#${attempt.fencingToken}`,
  };
  try {
    const { request, depth } = checkAddition(run, payload);
    applyAddition(run, request, depth, now);
    return null;
  } catch (err) {
    if (!(err instanceof TeamControlError)) throw err;
    const limit = err.code === 'max-spawned-tasks' || err.code === 'max-depth' || err.code === 'run_not_accepting_work';
    return { kind: limit ? 'limit' : 'invalid', message: `${err.code}: ${err.message}` };
  }
}

/**
 * Every check of new tasks but who sends them: shape, the running graph (as a plan's graph is
 * checked), whether the run still takes work, and the spawn limits. Throws `TeamControlError`
 * with the problem's code and path; returns the parsed request, and the depth of its tasks.
 */
function checkAddition(run: RunContext, payload: unknown): { request: AddTasksRequest; depth: number } {
  const parsed = AddTasksRequestSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s))` : '';
    throw new TeamControlError('schema', `addTasks: ${formatPath(issue.path)}: ${issue.message}${more}`);
  }
  const request = parsed.data;
  let depth = 0;
  if (request.parent !== undefined) {
    const p = run.graph.indexOf(request.parent);
    if (p === undefined)
      throw new TeamControlError('unknown_parent', `addTasks: parent: no task "${request.parent}" in the run`);
    depth = (run.graph.tasks[p].depth ?? 0) + 1;
  }
  if (run.spawns.earlier(request.requestId)) return { request, depth };
  if (!run.acceptingWork) {
    const why = run.abort
      ? 'was aborted'
      : run.budget.stopped
        ? `stopped on its budget (${run.budget.reason})`
        : 'is closing';
    throw new TeamControlError('run_not_accepting_work', `addTasks: the run ${why}; it takes no new tasks`);
  }
  const { graph } = run;
  const problems = validateAddedTasks(
    request.tasks,
    { has: (key) => graph.has(key), size: graph.size, keys: () => graph.keys.values() },
    run.plan,
  );
  if (problems.length) {
    const [first] = problems;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
    throw new TeamControlError(first.code, `addTasks: ${first.path}: ${first.message}${more}`);
  }
  const over =
    run.spawns.overLimit(run.plan.budget, request.tasks.length, depth) ??
    ledgerSpawnRefusal(run, request.tasks.length, depth);
  if (over) throw new TeamControlError(over.limit, `addTasks: ${over.message}`);
  return { request, depth };
}

/** Adds checked tasks at the end of the run, all at once; a repeated requestId adds nothing again. */
function applyAddition(run: RunContext, request: AddTasksRequest, depth: number, now: number): AddTasksVerdict {
  const earlier = run.spawns.earlier(request.requestId);
  if (earlier) {
    const added = run.graph.specs.slice(earlier.from, earlier.from + earlier.count).map((spec) => spec.key);
    return { ok: true, added, idempotent: true };
  }
  const lineage = request.parent !== undefined ? { parent: request.parent, depth } : {};
  const states = request.tasks.map((spec) => ({ ...newTaskState(spec.key, 'blocked', now), ...lineage }));
  const from = run.graph.append(request.tasks, states);
  run.spawns.record(request.requestId, from, request.tasks.length);
  const added = request.tasks.map((spec) => spec.key);
  run.events.record('task:added', now, {
    count: added.length,
    keys: added.slice(0, ADDED_EVENT_KEYS),
    parent: request.parent ?? null,
    depth,
    actor: request.actor ?? null,
    requestId: request.requestId,
  });
  run.graph.admitAppended(from, now);
  run.touch();
  return { ok: true, added };
}
