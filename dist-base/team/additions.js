"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateAddTasks = validateAddTasks;
exports.addTasks = addTasks;
exports.spawnOnSettle = spawnOnSettle;
const add_tasks_1 = require("../plan/requests/add-tasks");
const validate_1 = require("../plan/validate");
const validate_added_1 = require("../plan/validate-added");
const control_1 = require("../plan/requests/control");
const caller_1 = require("../plan/requests/caller");
const governance_1 = require("./governance");
const task_state_1 = require("./task-state");
const spawn_1 = require("./spawn");
/**
 * Every check of an `addTasks` request, in order: its shape; a task adding work must name
 * itself as `parent`, send its current fencing token (a stale attempt adds nothing), come from
 * its attempt (checkTaskClaim) and have `allowSpawn`; anyone else is checked against governance;
 * then the run must take work, the tasks pass the plan's checks against the running graph, and the spawn limits hold. A
 * requestId already taken answers as it did. Throws `TeamControlError`.
 */
function validateAddTasks(run, payload) {
    const caller = (0, caller_1.callerOf)(payload, 'addTasks');
    const checked = checkAddition(run, caller.request);
    const { request } = checked;
    if (request.parent !== undefined && request.fencingToken !== undefined) {
        const attempt = run.leases.get(request.parent);
        if (!attempt || attempt.fencingToken !== request.fencingToken) {
            throw new control_1.TeamControlError('stale_attempt', `addTasks: fencing token ${request.fencingToken} of "${request.parent}" is not its current attempt's ` +
                `(${attempt ? attempt.fencingToken : 'none running'})`);
        }
        (0, governance_1.checkTaskClaim)(run.plan, caller, 'addTasks');
        if (!run.spec(run.graph.indexOf(request.parent)).allowSpawn) {
            throw new control_1.TeamControlError('forbidden', `addTasks: task "${request.parent}" has no "allowSpawn": true in the plan`);
        }
    }
    else {
        (0, governance_1.checkActor)(run.plan, request.actor, 'addTasks');
    }
    // A run with nothing left to do is closing: tasks added now would never run.
    if (run.phase() === 'done' && !run.spawns.earlier(request.requestId)) {
        throw new control_1.TeamControlError('run_not_accepting_work', 'addTasks: the run has finished its work and is closing; it takes no new tasks');
    }
    return checked;
}
function addTasks(run, payload, now) {
    const { request, depth } = validateAddTasks(run, payload);
    return applyAddition(run, request, depth, now);
}
/**
 * What the attempt that settles task `i` successfully asked to add: added now, under the task's
 * name and fencing token. Over a spawn limit (or once the run takes no work) it is a `limit`
 * (the task goes to adjudication and nothing is added); tasks that are not a valid addition are
 * `invalid`, and a task without `allowSpawn` is `forbidden`. Null when it was added.
 */
function spawnOnSettle(run, i, attempt, tasks, now) {
    if (tasks === undefined)
        return null;
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
    }
    catch (err) {
        if (!(err instanceof control_1.TeamControlError))
            throw err;
        const limit = err.code === 'max-spawned-tasks' || err.code === 'max-depth' || err.code === 'run_not_accepting_work';
        return { kind: limit ? 'limit' : 'invalid', message: `${err.code}: ${err.message}` };
    }
}
/**
 * Every check of new tasks but who sends them: shape, the running graph (as a plan's graph is
 * checked), whether the run still takes work, and the spawn limits. Throws `TeamControlError`
 * with the problem's code and path; returns the parsed request, and the depth of its tasks.
 */
function checkAddition(run, payload) {
    const parsed = add_tasks_1.AddTasksRequestSchema.safeParse(payload);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem(s))` : '';
        throw new control_1.TeamControlError('schema', `addTasks: ${(0, validate_1.formatPath)(issue.path)}: ${issue.message}${more}`);
    }
    const request = parsed.data;
    let depth = 0;
    if (request.parent !== undefined) {
        const p = run.graph.indexOf(request.parent);
        if (p === undefined)
            throw new control_1.TeamControlError('unknown_parent', `addTasks: parent: no task "${request.parent}" in the run`);
        depth = (run.graph.tasks[p].depth ?? 0) + 1;
    }
    if (run.spawns.earlier(request.requestId))
        return { request, depth };
    if (!run.acceptingWork) {
        const why = run.abort
            ? 'was aborted'
            : run.budget.stopped
                ? `stopped on its budget (${run.budget.reason})`
                : 'is closing';
        throw new control_1.TeamControlError('run_not_accepting_work', `addTasks: the run ${why}; it takes no new tasks`);
    }
    const { graph } = run;
    const problems = (0, validate_added_1.validateAddedTasks)(request.tasks, { has: (key) => graph.has(key), size: graph.size, keys: () => graph.keys.values() }, run.plan);
    if (problems.length) {
        const [first] = problems;
        const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
        throw new control_1.TeamControlError(first.code, `addTasks: ${first.path}: ${first.message}${more}`);
    }
    const over = run.spawns.overLimit(run.plan.budget, request.tasks.length, depth);
    if (over)
        throw new control_1.TeamControlError(over.limit, `addTasks: ${over.message}`);
    return { request, depth };
}
/** Adds checked tasks at the end of the run, all at once; a repeated requestId adds nothing again. */
function applyAddition(run, request, depth, now) {
    const earlier = run.spawns.earlier(request.requestId);
    if (earlier) {
        const added = run.graph.specs.slice(earlier.from, earlier.from + earlier.count).map((spec) => spec.key);
        return { ok: true, added, idempotent: true };
    }
    const lineage = request.parent !== undefined ? { parent: request.parent, depth } : {};
    const states = request.tasks.map((spec) => ({ ...(0, task_state_1.newTaskState)(spec.key, 'blocked', now), ...lineage }));
    const from = run.graph.append(request.tasks, states);
    run.spawns.record(request.requestId, from, request.tasks.length);
    const added = request.tasks.map((spec) => spec.key);
    run.events.record('task:added', now, {
        count: added.length,
        keys: added.slice(0, spawn_1.ADDED_EVENT_KEYS),
        parent: request.parent ?? null,
        depth,
        actor: request.actor ?? null,
        requestId: request.requestId,
    });
    run.graph.admitAppended(from, now);
    run.touch();
    return { ok: true, added };
}
