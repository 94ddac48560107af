import type { TeamRun } from '../team/run';
export declare class IdleHooks {
    private readonly run;
    private readonly running;
    constructor(run: TeamRun);
    /** Starts the hooks the run asked for since the last call. */
    start(): void;
    /** Resolves when every hook started so far has ended. */
    drained(): Promise<void[]>;
}
