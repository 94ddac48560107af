import type { TeamRun } from '../team/run';
export declare class RunTelemetry {
    private readonly run;
    private seen;
    private readonly settled;
    private readonly leasesLost;
    private readonly pending;
    private readonly tokens;
    private readonly usd;
    /** The plan's name, the gauges' `team` label: read once, as a run's status is a view of every task. */
    private readonly team;
    constructor(run: TeamRun, now: number);
    /** Counts and traces the events since the last step, and sets the gauges. */
    record(now: number): void;
    private count;
}
