import type { RunResult } from '../contract';
import { type TeamPlanInput } from '../plan/schema';
import { type TeamRunSnapshot } from '../team/run';
import { type PackedSnapshot } from '../team/snapshot';
/** What `teamRun` takes: a plan, or (from continue-as-new) the snapshot of the run so far. */
export type TeamRunInput = TeamPlanInput | {
    continued: PackedSnapshot | TeamRunSnapshot;
};
export declare function teamRun(input: TeamRunInput): Promise<RunResult>;
