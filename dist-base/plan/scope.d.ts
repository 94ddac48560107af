/**
 * Scopes name parts of the workspace a task changes exclusively. They are paths relative to the
 * workspace; `"*"` (also written `"/"` or `"."`) is the whole workspace, exclusive with every
 * task that has any scope. Normalised once, when the plan is validated, so `docs`, `docs/` and
 * `./docs//` are one resource and a `..` cannot reach outside.
 */
export declare const WHOLE_WORKSPACE = "*";
export type ScopeCheck = {
    ok: true;
    scope: string;
} | {
    ok: false;
    message: string;
};
export declare function normalizeScope(raw: string): ScopeCheck;
/**
 * Two normalised scopes overlap when one is the whole workspace, or they are the same path or one contains the other.
 */
export declare function scopeOverlaps(x: string, y: string): boolean;
