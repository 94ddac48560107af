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

/**
 * What the run's ledger said when the run asked whether it aborted this run (its last abort-all or exhaustion names
 * it): an `abortRun` whose actor is the ledger's is taken from no one else. A workflow id is no credential.
 */
export interface LedgerAbortAnswer {
  confirmed: boolean;
  why: string;
}

/**
 * Throws `forbidden` when governance names operators and `actor` is not one of them. The run's own ledger may abort
 * it when `ledger` (its answer) confirms it; without an answer (histories from before the run asked) as before.
 */
export function checkActor(plan: TeamPlan, actor: string | undefined, message: string, ledger?: LedgerAbortAnswer) {
  const operators = plan.governance?.operators;
  if (message === 'abortRun' && ledgerAbortClaim(plan, actor)) {
    if (!ledger || ledger.confirmed) return;
    throw new TeamControlError(
      'forbidden',
      `abortRun: actor "${actor}" names the run's ledger, which did not confirm it aborted this run (${ledger.why})`,
    );
  }
  if (operators && !(actor && operators.includes(actor))) {
    throw new TeamControlError('forbidden', `${message}: actor "${actor ?? ''}" is not one of governance.operators`);
  }
}

/**
 * Whether an abort from `actor` needs its ledger's word: it names the run's ledger (`ledger:<name>`) and no operator
 * of a governed run. A run without operators takes anyone's abort, so it asks nothing.
 */
export function ledgerAbortClaim(plan: TeamPlan, actor: string | undefined): boolean {
  const operators = plan.governance?.operators;
  const ledger = plan.budget.ledger;
  return ledger !== undefined && actor === ledgerActor(ledger) && !!operators && !operators.includes(actor);
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
/**
 * Confirmations that may wait at once on queues the workflow cannot vouch for (not the queue the attempt announced,
 * nor one that confirmed before), in all and per queue. A made-up proof names a queue nobody polls and waits out the
 * confirmation's 20 s schedule-to-start, holding one of the 10 updates Temporal lets a workflow have in flight: so
 * few that operators' updates and workers' own always find room.
 */
export const MAX_UNVERIFIED_CONFIRMATIONS = 2;
export const MAX_UNVERIFIED_PER_QUEUE = 1;
/** The code of a request refused because too many confirmations wait on unvouched queues: send it again shortly. */
export const CONFIRMATIONS_BUSY = 'busy';
/** Nonces a run remembers (oldest forgotten first; the worker forgets its own after use). */
const REMEMBERED_NONCES = 1024;
/** Queues that confirmed a request (a worker that answers), remembered as vouched for. */
const REMEMBERED_QUEUES = 256;

/**
 * The proofs a run (a journal, a ledger) has seen: a nonce is taken once, a proof naming another queue than the one
 * its attempt announced is nobody's, and only so many confirmations wait at once, fewer on queues not vouched for.
 * Workflow memory, not the snapshot: the handler rebuilds it on replay; after a continue-as-new the worker's own
 * single use of each nonce remains.
 */
export class AttemptConfirmations {
  private readonly seen = new Set<string>();
  private pending = 0;
  private readonly unverified = new Map<string, number>();
  private unverifiedTotal = 0;
  private readonly vouched = new Set<string>();

  /**
   * The validator's check: throws `forbidden` for a nonce used before, a queue other than `announced` (the queue the
   * attempt told the run it runs on, when it did), or when too many wait.
   */
  check(caller: Caller, message: string, announced?: string): void {
    const proof = caller.attempt;
    if (!proof) return;
    if (this.seen.has(proof.nonce))
      throw new TeamControlError('forbidden', `${message}: attempt nonce already used; each request needs a new one`);
    if (announced !== undefined && proof.queue !== announced) {
      throw new TeamControlError(
        'forbidden',
        `${message}: the proof names worker queue ${proof.queue}, but the attempt runs on ${announced}`,
      );
    }
    if (this.pending >= MAX_PENDING_CONFIRMATIONS) {
      throw new TeamControlError(
        'forbidden',
        `${message}: ${MAX_PENDING_CONFIRMATIONS} attempt requests are being confirmed already; try again shortly`,
      );
    }
    if (this.isVouched(proof.queue, announced)) return;
    if (this.unverifiedTotal >= MAX_UNVERIFIED_CONFIRMATIONS || this.unverified.has(proof.queue)) {
      // `busy`: the worker's gateway sends it again shortly (its queue is vouched for once one of them is confirmed).
      throw new TeamControlError(
        CONFIRMATIONS_BUSY,
        `${message}: ${this.unverifiedTotal} request(s) naming worker queues not known here are being confirmed ` +
          `(at most ${MAX_UNVERIFIED_CONFIRMATIONS}, ${MAX_UNVERIFIED_PER_QUEUE} per queue); try again shortly`,
      );
    }
  }

  /** The confirmation begins; `end` with the same proof and the answer. */
  begin(proof: AttemptProof, announced?: string): void {
    this.seen.add(proof.nonce);
    if (this.seen.size > REMEMBERED_NONCES) this.seen.delete(this.seen.values().next().value!);
    this.pending += 1;
    if (this.isVouched(proof.queue, announced)) return;
    this.unverified.set(proof.queue, (this.unverified.get(proof.queue) ?? 0) + 1);
    this.unverifiedTotal += 1;
  }

  end(proof: AttemptProof, confirmed: boolean): void {
    this.pending -= 1;
    const waiting = this.unverified.get(proof.queue);
    if (waiting !== undefined) {
      this.unverifiedTotal -= 1;
      if (waiting <= 1) this.unverified.delete(proof.queue);
      else this.unverified.set(proof.queue, waiting - 1);
    }
    if (!confirmed || this.vouched.has(proof.queue)) return;
    this.vouched.add(proof.queue);
    if (this.vouched.size > REMEMBERED_QUEUES) this.vouched.delete(this.vouched.values().next().value!);
  }

  private isVouched(queue: string, announced: string | undefined): boolean {
    return queue === announced || this.vouched.has(queue);
  }
}
