"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.newTaskState = newTaskState;
/** A task as it enters the run: never attempted. */
function newTaskState(key, status, now) {
    return {
        key,
        status,
        attempts: 0,
        uncounted: 0,
        fencingToken: 0,
        current: null,
        holder: null,
        previousLease: null,
        readyAt: now,
        startedAt: null,
        settledAt: null,
        lastError: null,
        skipReason: null,
        usage: { inputTokens: 0, outputTokens: 0, cacheTokens: 0, costUsd: 0 },
    };
}
