"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.taskView = taskView;
function taskView(task, spec) {
    const view = {
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
    if (task.output !== undefined)
        view.output = task.output;
    return view;
}
