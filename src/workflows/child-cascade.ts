/**
 * The parent's side of a cascade (src/team/cascade.ts): the token it stamps in a child's plan as it starts it, and
 * the `abortRun` it sends the child quoting it. Workflow code: the token comes from the workflow's seeded random.
 */
import { patched, uuid4 } from '@temporalio/workflow';
import type { AbortRequest } from '../plan/requests/control';
import type { ParentLink } from '../plan/team';
import type { ChildAbort } from '../team/child-team';
import type { Claim } from '../team/types';

/** Runs whose history began before cascades carried a token start children without one (replay stays the same). */
export const TEAM_CASCADE_PATCH = 'teamrun-team-cascade';

/** A new random token for one child, or null in a run from before the patch. */
export function cascadeToken(): string | null {
  return patched(TEAM_CASCADE_PATCH) ? uuid4() : null;
}

export function parentLink(parentRun: string, claim: Pick<Claim, 'key' | 'fencingToken'>, token: string): ParentLink {
  return { run: parentRun, key: claim.key, fencingToken: claim.fencingToken, token };
}

/**
 * What the child is sent. With a token: the cascade, whose interrupt puts the child's attempts in adjudication there.
 * Without (a child started before the patch): the abort as before, no adjudication, under the child's governance.
 */
export function cascadeRequest(abort: ChildAbort, token: string | null): AbortRequest {
  const { interrupt, ...request } = abort;
  if (!token) return { ...request, requireAdjudication: false };
  return { ...request, requireAdjudication: interrupt, cascade: { token, interrupt } };
}
