"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_STOPS_PER_REQUEST = exports.MAX_ANNOUNCED_PER_SIGNAL = void 0;
exports.parseAnnouncements = parseAnnouncements;
exports.stopsByQueue = stopsByQueue;
const lease_pace_1 = require("../plan/lease-pace");
/** At most this many attempts in one announcement (a signal's payload stays under ~100 KB). */
exports.MAX_ANNOUNCED_PER_SIGNAL = 1_000;
/** At most this many lease ids in one stop activity's input (each at most ~330 chars). */
exports.MAX_STOPS_PER_REQUEST = 500;
/**
 * The announcements an `attemptRunning` signal carries; none when it is not one (it comes from
 * outside, so everything is bounded: a malformed entry is dropped, the rest kept).
 */
function parseAnnouncements(payload) {
    if (typeof payload !== 'object' || payload === null)
        return [];
    const { queue, attempts } = payload;
    if (typeof queue !== 'string' || queue.length === 0 || queue.length > lease_pace_1.MAX_STOP_QUEUE_CHARS)
        return [];
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(queue))
        return [];
    if (!Array.isArray(attempts) || attempts.length > exports.MAX_ANNOUNCED_PER_SIGNAL)
        return [];
    const out = [];
    for (const entry of attempts) {
        if (typeof entry !== 'object' || entry === null)
            continue;
        const { key, fencingToken } = entry;
        if (typeof key !== 'string' || key.length === 0 || key.length > 128)
            continue;
        if (typeof fencingToken !== 'number' || !Number.isSafeInteger(fencingToken) || fencingToken < 1)
            continue;
        out.push({ key, fencingToken, queue });
    }
    return out;
}
/** Stops grouped by queue (in first-seen order), each lease once, in chunks of `MAX_STOPS_PER_REQUEST`. */
function stopsByQueue(stops) {
    const byQueue = new Map();
    for (const { queue, leaseId } of stops) {
        let set = byQueue.get(queue);
        if (!set)
            byQueue.set(queue, (set = new Set()));
        set.add(leaseId);
    }
    const requests = [];
    for (const [queue, set] of byQueue) {
        const ids = [...set];
        for (let i = 0; i < ids.length; i += exports.MAX_STOPS_PER_REQUEST)
            requests.push({ queue, leaseIds: ids.slice(i, i + exports.MAX_STOPS_PER_REQUEST) });
    }
    return requests;
}
