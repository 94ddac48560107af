import { type Adoption } from '../team/handover';
import type { TeamRun } from '../team/run';
import type { AttemptOutcome, Claim } from '../team/types';
import type { RecentLinks } from './details';
import { type RunLedger } from '../ledger/run-ledger';
export declare class Attempts {
    private readonly run;
    private readonly ledger;
    private readonly links;
    /** The scope of each task's live attempt, by task key. */
    private readonly scopes;
    constructor(run: TeamRun, ledger: RunLedger | null, links: RecentLinks);
    launch(claim: Claim): void;
    /**
     * Re-attaches to an attempt the run's snapshot carried (src/team/handover.ts): its worker runs it
     * on, and `adoptAttempt` on that worker's stop queue answers as its runTask would. Same activity
     * id, lease and cancellation as the attempt's runTask; interrupts and aborts reach it alike.
     */
    adopt(adoption: Adoption): void;
    /**
     * Cancels the attempts the run stopped; those that announced their worker's stop queue also get a stop there, at
     * once.
     */
    cancelStopped(): void;
    /** `claim` is absent for an adopted attempt, which never holds a shared-ledger slot. */
    private settle;
}
/** Turns what Temporal reports for an attempt into an outcome the team rules understand. */
export declare function outcomeOf(err: unknown): AttemptOutcome;
