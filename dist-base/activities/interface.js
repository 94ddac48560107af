"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AGENT_STEPS_SIGNAL = exports.ATTEMPT_RUNNING_SIGNAL = exports.MAX_OUTPUT_BYTES = exports.FAILURE_TYPES = exports.MAX_SPAWN_BYTES = exports.MAX_ATTEMPT_LINKS = void 0;
exports.leaseIdOf = leaseIdOf;
exports.attemptActivityId = attemptActivityId;
exports.expandRunTaskInput = expandRunTaskInput;
/** The lease id of an attempt: its run, task and fencing token (src/team/leases.ts makes them so). */
function leaseIdOf(workflowId, taskKey, fencingToken) {
    return `${workflowId}/${taskKey}/${fencingToken}`;
}
/** The activity id of an attempt's `runTask`: its task and fencing token (src/team/leases.ts makes them so). */
function attemptActivityId(taskKey, fencingToken) {
    return `${taskKey}#${fencingToken}`;
}
/**
 * The whole input of an attempt from what its run sent and its activity's info (`workflowId`,
 * `activityId`); `defaults` are the worker's own (the heartbeat timeout's pace, the announce delay).
 */
function expandRunTaskInput(input, activity, defaults) {
    if (input.workflowId !== undefined)
        return input;
    const { leaseId, title, dependencyOutputs, heartbeatEveryMs, announceAfterMs, ...rest } = input;
    const { workflowId, activityId } = activity;
    const cut = activityId.lastIndexOf('#');
    const taskKey = input.taskKey ?? activityId.slice(0, cut);
    const fencingToken = input.fencingToken ?? Number(activityId.slice(cut + 1));
    const named = input.taskKey !== undefined && input.fencingToken !== undefined;
    if (!named && (cut < 1 || !Number.isSafeInteger(fencingToken))) {
        throw new Error(`runTask: activity id "${activityId}" is not <task key>#<fencing token>, and the input names neither`);
    }
    return {
        ...rest,
        workflowId,
        taskKey,
        attempt: input.attempt ?? fencingToken,
        fencingToken,
        leaseId: leaseId ?? leaseIdOf(workflowId, taskKey, fencingToken),
        title: title ?? taskKey,
        dependencyOutputs: dependencyOutputs ?? {},
        heartbeatEveryMs: heartbeatEveryMs ?? defaults.heartbeatEveryMs,
        announceAfterMs: announceAfterMs ?? defaults.announceAfterMs,
    };
}
/** At most this many links per attempt; later ones are ignored. */
exports.MAX_ATTEMPT_LINKS = 5;
/** Bound on the tasks one attempt asks to add, as JSON (and ADD_TASKS_LIMITS.maxTasks of them). */
exports.MAX_SPAWN_BYTES = 512 * 1024;
/** Failure types the workflow tells apart. */
exports.FAILURE_TYPES = {
    /** The worker is shutting down: the attempt is handed back to be re-leased, not adjudicated. */
    workerShutdown: 'TeamWorkerShutdown',
    executorNotEnabled: 'TeamExecutorNotEnabled',
    invalidExecutor: 'TeamInvalidExecutor',
    outputTooLarge: 'TeamOutputTooLarge',
    invalidPlan: 'InvalidTeamPlan',
    /** The executor threw something other than an ExecutorError: retried under the task's `retry`. */
    executorCrashed: 'TeamExecutorCrashed',
};
/** Bound on one task's output, which travels through history to its dependents. */
exports.MAX_OUTPUT_BYTES = 64 * 1024;
/** The signal a long attempt sends its run: `{ key, fencingToken, queue }` (see src/team/stop-channel.ts). */
exports.ATTEMPT_RUNNING_SIGNAL = 'attemptRunning';
/** The signal an agent attempt's worker sends its run: `{ key, fencingToken, steps }` (src/team/agents.ts). */
exports.AGENT_STEPS_SIGNAL = 'agentSteps';
