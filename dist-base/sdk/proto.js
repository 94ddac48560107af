"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tsToMs = tsToMs;
exports.optionalTsToMs = optionalTsToMs;
/**
 * Milliseconds since the epoch of a protobuf timestamp (its seconds a Long, or a number when built
 * from plain objects). Throws on a missing one: every history event has its time.
 */
function tsToMs(ts) {
    if (ts == null)
        throw new Error(`Expected timestamp, got ${ts}`);
    const seconds = ts.seconds == null ? 0 : typeof ts.seconds === 'number' ? ts.seconds : ts.seconds.toNumber();
    return seconds * 1000 + Math.floor((ts.nanos ?? 0) / 1_000_000);
}
/** As `tsToMs`, or undefined for an absent timestamp. */
function optionalTsToMs(ts) {
    return ts == null ? undefined : tsToMs(ts);
}
