"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.record = record;
exports.count = count;
exports.text = text;
/** Reads `value` as a record (a JSON object), or an empty one. */
function record(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}
/** A non-negative count from the stream, or 0 (a stream is outside input: never trusted for a shape). */
function count(value) {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
function text(value) {
    return typeof value === 'string' ? value : '';
}
