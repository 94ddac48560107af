"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.defaultHeartbeatEveryMs = void 0;
exports.paceHeartbeats = paceHeartbeats;
exports.firstHeartbeatInMs = firstHeartbeatInMs;
function paceHeartbeats(beat, everyMs, firstInMs = everyMs) {
    let interval;
    const first = setTimeout(() => {
        beat();
        interval = setInterval(beat, everyMs);
    }, Math.max(0, Math.min(everyMs, firstInMs)));
    return {
        now: beat,
        stop() {
            clearTimeout(first);
            clearInterval(interval);
        },
    };
}
/**
 * When the first heartbeat is due, from now: `everyMs` after the attempt was scheduled. Temporal
 * counts the heartbeat timeout from the activity's start, when it handed the task to the worker's
 * poller, possibly long before the activity function runs on a busy worker (seen: 11 s,
 * with 100 attempts starting at once on two loaded cores, which lost a 60 s lease paced from the
 * function's start). The start is never before the schedule, so this is never late; a clock
 * ahead of the server's only makes it early.
 */
function firstHeartbeatInMs(everyMs, scheduledAtMs, nowMs) {
    return Math.max(0, everyMs - Math.max(0, nowMs - scheduledAtMs));
}
/** Without a pace from the plan: the default for a heartbeat timeout of `ttlMs` (see src/plan/lease-pace.ts). */
var lease_pace_1 = require("../plan/lease-pace");
Object.defineProperty(exports, "defaultHeartbeatEveryMs", { enumerable: true, get: function () { return lease_pace_1.defaultHeartbeatEveryMs; } });
