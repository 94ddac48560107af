import type { Client } from '@temporalio/client';
import type { TeamrunConfig } from '../config/config';
import { type TeamScheduleSpec } from './schedules';
/** One thing sync did (or, in a dry run, would do) to one schedule. */
export interface SyncStep {
    op: 'create' | 'update' | 'unchanged' | 'delete' | 'conflict';
    id: string;
    detail: string;
}
/**
 * Reads `schedules:` from the config into full specs; plan paths are relative to the config
 * file. Every plan is validated before anything is touched, so a bad one changes nothing.
 */
export declare function declaredSchedules(config: TeamrunConfig & {
    file?: string | null;
}): TeamScheduleSpec[];
/**
 * Works out what sync must do: create declared schedules that are missing, update those whose
 * fingerprint changed, and (with `prune`) delete schedules `schedule sync` created for this task
 * queue that are no longer declared. Schedules teamrun did not create are never touched.
 */
export declare function planSync(client: Client, declared: TeamScheduleSpec[], options: {
    prune: boolean;
    taskQueue: string;
}): Promise<SyncStep[]>;
/** Carries out the steps `planSync` worked out. */
export declare function applySync(client: Client, declared: TeamScheduleSpec[], steps: SyncStep[]): Promise<void>;
