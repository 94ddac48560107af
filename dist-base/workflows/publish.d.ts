import type { RunLedger } from '../ledger/run-ledger';
import type { TeamRun } from '../team/run';
import { type RecentLinks } from './details';
export declare class Publisher {
    private readonly run;
    private readonly links;
    private readonly ledger;
    private published;
    private readonly telemetry;
    constructor(run: TeamRun, links: RecentLinks, ledger?: RunLedger | null);
    publish(): void;
}
