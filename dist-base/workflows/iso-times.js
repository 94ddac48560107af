"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withIsoTimes = withIsoTimes;
/** Keys whose values are the user's own data: never walked, never given extra fields. */
const OPAQUE = new Set(['output', 'result', 'usage', 'limits', 'plan', 'executor']);
const MAX_DEPTH = 4;
/**
 * A query answer with an ISO 8601 twin beside every timestamp (`startedAt` -> `startedAtIso`,
 * `at` -> `atIso`), for people reading answers in the Web UI's Queries tab. The epoch-ms fields
 * stay as they are: the CLI, scripts and tests read those. Deterministic (no clock read).
 */
function withIsoTimes(value, depth = 0) {
    if (depth > MAX_DEPTH || value === null || typeof value !== 'object')
        return value;
    if (Array.isArray(value))
        return value.map((item) => withIsoTimes(item, depth + 1));
    const out = {};
    for (const [key, field] of Object.entries(value)) {
        if (OPAQUE.has(key)) {
            out[key] = field;
            continue;
        }
        out[key] = withIsoTimes(field, depth + 1);
        if ((key === 'at' || key.endsWith('At')) && typeof field === 'number' && Number.isFinite(field) && field >= 0) {
            out[`${key}Iso`] = new Date(field).toISOString();
        }
    }
    return out;
}
