"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WHOLE_WORKSPACE = void 0;
exports.normalizeScope = normalizeScope;
exports.scopeOverlaps = scopeOverlaps;
/**
 * Scopes name parts of the workspace a task changes exclusively. They are paths relative to the
 * workspace; `"*"` (also written `"/"` or `"."`) is the whole workspace, exclusive with every
 * task that has any scope. Normalised once, when the plan is validated, so `docs`, `docs/` and
 * `./docs//` are one resource and a `..` cannot reach outside.
 */
exports.WHOLE_WORKSPACE = '*';
function normalizeScope(raw) {
    if (raw === exports.WHOLE_WORKSPACE || raw === '/')
        return { ok: true, scope: exports.WHOLE_WORKSPACE };
    if (raw.startsWith('/')) {
        return {
            ok: false,
            message: `scope "${raw}" is an absolute path outside the workspace: ` +
                `scopes are relative to it ("/" or "*" is all of it)`,
        };
    }
    const segments = [];
    for (const segment of raw.split('/')) {
        if (segment === '' || segment === '.')
            continue;
        if (segment === '..')
            return { ok: false, message: `scope "${raw}" has a ".." segment: scopes must stay inside the workspace` };
        segments.push(segment);
    }
    return { ok: true, scope: segments.length ? segments.join('/') : exports.WHOLE_WORKSPACE };
}
/**
 * Two normalised scopes overlap when one is the whole workspace, or they are the same path or one contains the other.
 */
function scopeOverlaps(x, y) {
    return x === exports.WHOLE_WORKSPACE || y === exports.WHOLE_WORKSPACE || x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}
