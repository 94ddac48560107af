import type { AttemptLink } from '../activities/interface';
import type { TeamRun } from '../team/run';
/**
 * The short markdown the Web UI shows as the run's current details: where the run is, what
 * waits for a human (and how to decide it), what runs now, and the budget.
 */
export declare function currentDetails(run: TeamRun, now: number, links?: ReadonlyArray<TaskLinks>): string;
export interface TaskLinks {
    key: string;
    links: AttemptLink[];
}
/**
 * The links (`::teamrun-link::`) the latest attempts printed, newest last, at most LISTED tasks:
 * kept in workflow memory for the current details only, rebuilt from history on replay.
 */
export declare class RecentLinks {
    recent: TaskLinks[];
    remember(key: string, carrier: object): void;
}
/** Durations in a recorded reason (`3600000 ms`) as people read them (`1 h`). */
export declare function readableMs(text: string): string;
