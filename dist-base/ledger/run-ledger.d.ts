import { type LedgerLease } from './activity-interface';
import { TeamrunError } from '../errors';
import type { AttemptOutcome, BudgetReason, Claim, Reservation } from '../team/types';
/** The attempt never started: its ledger refused it for good (`reason`), or it was stopped while it waited. */
export declare class AttemptNotStarted extends TeamrunError {
    readonly reason: BudgetReason | null;
    readonly code = "attempt_not_started";
    constructor(reason: BudgetReason | null, message: string);
}
/**
 * A team run's side of a shared ledger (`budget.ledger` in its plan): register at start, a slot
 * before each attempt, a settlement after it, unregister at the end. Each attempt is charged to
 * the ledger once (the run's own budget charges it once more, on its own account).
 */
export declare class RunLedger implements LedgerExtensions {
    readonly id: string;
    private readonly workflowId;
    private readonly name;
    /** Tells the run an attempt began (`waiting`) or ended (`admitted`) a wait for the ledger's recovery. */
    private readonly onWait;
    /** Attempts that asked for a slot and must be settled with the ledger (held or maybe held). */
    private readonly asked;
    private readonly settling;
    /**
     * What the ledger granted each attempt beyond its reservation, by attempt id: a lost attempt held that too. Workflow
     * memory is enough: a run on a ledger carries no attempt across its continue-as-new (each settles first).
     */
    private readonly extended;
    /** Attempts waiting for the ledger's recovery, by activity id: workflow memory, for the current details. */
    private readonly waiting;
    constructor(id: string, workflowId: string, name: string, 
    /** Tells the run an attempt began (`waiting`) or ended (`admitted`) a wait for the ledger's recovery. */
    onWait?: (claim: Claim, phase: 'waiting' | 'admitted', message: string) => void);
    /** The status line while attempts wait for an operator to resolve the ledger; null when none waits. */
    waitingLine(): string | null;
    register(): Promise<void>;
    /** What `runTask` needs to keep the slot: a renewal every TTL, on a lease of two TTLs. */
    lease(claim: Claim): LedgerLease;
    /**
     * Takes a slot for the attempt, then starts it. Call inside the attempt's cancellation scope:
     * an interrupt or abort while it waits for a slot stops the wait. Rejects with
     * `AttemptNotStarted` when the attempt never started.
     */
    admit<T>(claim: Claim, start: () => Promise<T>): Promise<T>;
    /**
     * Takes the slot, waiting (retries out of history) while slots or reservations are held. A ledger that requires
     * recovery refuses the first try, so the run can say why it waits; the second try then waits for an operator.
     */
    private acquire;
    /**
     * Grows the attempt's slot by an extension the run granted it: null once the ledger grants it too, else the
     * budget reason and why. It fails closed: a ledger that cannot be asked (unreachable, or of an older version
     * without `extend`) refuses.
     */
    extend(attemptId: string, extension: Reservation): Promise<{
        reason: string;
        message: string;
    } | null>;
    /** Charges the attempt's usage to the ledger and frees its slot, in the background, retried until it lands. */
    settle(claim: Claim, outcome: AttemptOutcome): void;
    /** Waits for every settlement in flight (before the run closes or continues as new). */
    drain(): Promise<void>;
    unregister(): Promise<void>;
}
/** The shared ledger's side of an extension, as extendReservation asks it; absent when the run has no ledger. */
export interface LedgerExtensions {
    /** Resolves null once the ledger granted it too, or the refusal's budget reason and message. */
    extend(attemptId: string, extension: {
        tokens: number;
        usd: number;
    }): Promise<{
        reason: string;
        message: string;
    } | null>;
}
