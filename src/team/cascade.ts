/**
 * Who may cascade a stop into a child run (docs/teams.md, "Who may cascade"). A Temporal signal does not say which
 * workflow sent it, so a workflow id is no credential: the parent stamps a random token in the child's plan as it
 * starts it (`parent.token`, set by nobody else: the child's input is the parent's start command), and its cascade
 * (`abortRun { cascade: { token } }`) quotes it. A cascade with that token passes the child's governance, whatever
 * actor it names; one with another token is refused `forbidden` before anything is recorded but the refusal.
 */
import type { TeamPlan } from '../plan/schema';
import { TeamControlError, type AbortRequest } from '../plan/requests/control';

/** What stopped a child from above: its parent's interrupt of the team task, or the parent's own stop. */
export type CascadeKind = 'interrupt' | 'abort';

/**
 * Null for a request that claims no cascade; the cascade's kind for one quoting the child's token. Throws `forbidden`
 * for a claimed cascade the run cannot take (it has no parent, or the token is not its parent's).
 */
export function cascadeOf(plan: TeamPlan, request: Pick<AbortRequest, 'cascade'>): CascadeKind | null {
  const cascade = request.cascade;
  if (!cascade) return null;
  const parent = plan.parent;
  if (!parent) throw new TeamControlError('forbidden', 'abortRun: a cascade reached a run that has no parent run');
  if (cascade.token !== parent.token) {
    throw new TeamControlError(
      'forbidden',
      `abortRun: the cascade's token is not the one the parent run ${parent.run} gave this run`,
      'cascade',
    );
  }
  return cascade.interrupt ? 'interrupt' : 'abort';
}
