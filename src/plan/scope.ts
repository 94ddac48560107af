/**
 * Scopes name parts of the workspace a task changes exclusively. They are paths relative to the
 * workspace; `"*"` (also written `"/"` or `"."`) is the whole workspace, exclusive with every
 * task that has any scope. Normalised once, when the plan is validated, so `docs`, `docs/` and
 * `./docs//` are one resource and a `..` cannot reach outside.
 */
export const WHOLE_WORKSPACE = '*';

export type ScopeCheck = { ok: true; scope: string } | { ok: false; message: string };

export function normalizeScope(raw: string): ScopeCheck {
  if (raw === WHOLE_WORKSPACE || raw === '/') return { ok: true, scope: WHOLE_WORKSPACE };
  if (raw.startsWith('/')) {
    return {
      ok: false,
      message:
        `scope "${raw}" is an absolute path outside the workspace: ` +
        `scopes are relative to it ("/" or "*" is all of it)`,
    };
  }
  const segments: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..')
      return { ok: false, message: `scope "${raw}" has a ".." segment: scopes must stay inside the workspace` };
    segments.push(segment);
  }
  return { ok: true, scope: segments.length ? segments.join('/') : WHOLE_WORKSPACE };
}

/**
 * Two normalised scopes overlap when one is the whole workspace, or they are the same path or one contains the other.
 */
export function scopeOverlaps(x: string, y: string): boolean {
  return x === WHOLE_WORKSPACE || y === WHOLE_WORKSPACE || x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}
