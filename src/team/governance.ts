/**
 * Who may steer a run: `governance.operators` names the actors allowed to send control
 * messages; the run's shared ledger may always abort it (a cascade abort). A request that claims
 * to be a running task is the task's only with its worker's proof (`attempt`), which the workflow
 * confirms with that worker before it applies the request; a fencing token alone is a person's
 * claim. Reads the plan only.
 */
import type { AttemptProof } from '../contract';
import type { Caller } from '../plan/requests/caller';
import type { TeamPlan } from '../plan/schema';
import { TeamControlError } from '../plan/requests/control';
import { ledgerActor } from '../plan/requests/ledger';

/** Throws `forbidden` when governance names operators and `actor` is not one of them. */
export function checkActor(plan: TeamPlan, actor: string | undefined, message: string): void {
  const operators = plan.governance?.operators;
  const ledger = plan.budget.ledger;
  if (message === 'abortRun' && ledger !== undefined && actor === ledgerActor(ledger)) return;
  if (operators && !(actor && operators.includes(actor))) {
    throw new TeamControlError('forbidden', `${message}: actor "${actor ?? ''}" is not one of governance.operators`);
  }
}

/**
 * A request that claims to be a running task (its fencing token, its key as `from`): with its
 * worker's proof it is the task's, applied only once that worker confirmed it; without, it is a
 * person holding a public token, and needs to be an operator.
 */
export function checkTaskClaim(plan: TeamPlan, caller: Caller, message: string): void {
  if (caller.attempt) return;
  const operators = plan.governance?.operators;
  if (operators && !(caller.actor && operators.includes(caller.actor))) {
    throw new TeamControlError(
      'forbidden',
      `${message}: a fencing token alone does not speak for a task (only its attempt's worker does, through ` +
        `teamrun inside the task); actor "${caller.actor ?? ''}" is not one of governance.operators`,
    );
  }
}

/** Confirmations a run waits for at once; past it a request with a proof is refused at once. */
export const MAX_PENDING_CONFIRMATIONS = 32;
/** Nonces a run remembers (oldest forgotten first; the worker forgets its own after use). */
const REMEMBERED_NONCES = 1024;

/**
 * The proofs a run has seen: a nonce is taken once, and only so many confirmations wait at once.
 * Workflow memory, not the snapshot: the handler rebuilds it on replay; after a continue-as-new the
 * worker's own single use of each nonce remains.
 */
export class AttemptConfirmations {
  private readonly seen = new Set<string>();
  private pending = 0;

  /** The validator's check: throws `forbidden` for a nonce used before or when too many wait. */
  check(caller: Caller, message: string): void {
    if (!caller.attempt) return;
    if (this.seen.has(caller.attempt.nonce))
      throw new TeamControlError('forbidden', `${message}: attempt nonce already used; each request needs a new one`);
    if (this.pending >= MAX_PENDING_CONFIRMATIONS) {
      throw new TeamControlError(
        'forbidden',
        `${message}: ${MAX_PENDING_CONFIRMATIONS} attempt requests are being confirmed already; try again shortly`,
      );
    }
  }

  begin(proof: AttemptProof): void {
    this.seen.add(proof.nonce);
    if (this.seen.size > REMEMBERED_NONCES) this.seen.delete(this.seen.values().next().value!);
    this.pending += 1;
  }

  end(): void {
    this.pending -= 1;
  }
}
