"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.IdleHooks = void 0;
/**
 * `hooks.teammateIdle`: each hook the run asks for runs as an activity of its own; the run waits
 * for them before it closes or hands over. A hook never touches a task.
 */
const workflow_1 = require("@temporalio/workflow");
const lease_pace_1 = require("../plan/lease-pace");
class IdleHooks {
    run;
    running = new Set();
    constructor(run) {
        this.run = run;
    }
    /** Starts the hooks the run asked for since the last call. */
    start() {
        const { run } = this;
        for (const hook of run.drainIdleHooks()) {
            const done = runIdleHook(run.workflowId, hook).then(() => run.hookEnded(hook, { ok: true }, Date.now()), (err) => run.hookEnded(hook, { ok: false, error: errorText(err) }, Date.now()));
            this.running.add(done);
            // Dropped from the set when it ends; `drained` awaits the same promise, so nothing is lost.
            void done.finally(() => this.running.delete(done));
        }
    }
    /** Resolves when every hook started so far has ended. */
    drained() {
        return Promise.all(this.running);
    }
}
exports.IdleHooks = IdleHooks;
function errorText(err) {
    if (!(err instanceof Error))
        return String(err);
    return err.cause instanceof Error ? err.cause.message : err.message;
}
/** One `hooks.teammateIdle` run: the `runTask` activity with the member record as its input, bounded in time. */
async function runIdleHook(workflowId, hook) {
    const { runTask } = (0, workflow_1.proxyActivities)({
        activityId: `hook:teammateIdle:${hook.member.holder}#${hook.seq}`,
        startToCloseTimeout: (0, lease_pace_1.hookTimeoutMs)(hook.executor),
        retry: { maximumAttempts: 1 },
        summary: `teammateIdle hook · ${hook.member.holder}`,
    });
    await runTask({
        workflowId,
        taskKey: `hook:teammateIdle:${hook.member.holder}`,
        title: `teammateIdle hook for ${hook.member.holder}`,
        attempt: hook.seq,
        fencingToken: hook.seq,
        leaseId: `${workflowId}/hook:teammateIdle/${hook.seq}`,
        holder: hook.member.holder,
        executor: hook.executor,
        dependencyOutputs: { member: hook.member },
    });
}
