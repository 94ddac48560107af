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
/** Throws `forbidden` when governance names operators and `actor` is not one of them. */
export declare function checkActor(plan: TeamPlan, actor: string | undefined, message: string): void;
/**
 * A request that claims to be a running task (its fencing token, its key as `from`): with its
 * worker's proof it is the task's, applied only once that worker confirmed it; without, it is a
 * person holding a public token, and needs to be an operator.
 */
export declare function checkTaskClaim(plan: TeamPlan, caller: Caller, message: string): void;
/** Confirmations a run waits for at once; past it a request with a proof is refused at once. */
export declare const MAX_PENDING_CONFIRMATIONS = 32;
/**
 * The proofs a run has seen: a nonce is taken once, and only so many confirmations wait at once.
 * Workflow memory, not the snapshot: the handler rebuilds it on replay; after a continue-as-new the
 * worker's own single use of each nonce remains.
 */
export declare class AttemptConfirmations {
    private readonly seen;
    private pending;
    /** The validator's check: throws `forbidden` for a nonce used before or when too many wait. */
    check(caller: Caller, message: string): void;
    begin(proof: AttemptProof): void;
    end(): void;
}
