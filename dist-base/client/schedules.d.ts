import { ScheduleOverlapPolicy, type Client, type ScheduleDescription, type ScheduleSummary } from '@temporalio/client';
import { TeamrunError } from '../errors';
import type { TeamPlanInput } from '../plan/schema';
/** The overlap policies as users write them, and what Temporal calls them. */
export declare const OVERLAP_POLICIES: {
    readonly skip: "SKIP";
    readonly 'buffer-one': "BUFFER_ONE";
    readonly 'buffer-all': "BUFFER_ALL";
    readonly 'cancel-other': "CANCEL_OTHER";
    readonly 'allow-all': "ALLOW_ALL";
};
export type OverlapName = keyof typeof OVERLAP_POLICIES;
/** Memo key on every schedule teamrun creates: who made it, so `schedule sync --prune` only deletes its own. */
export declare const OWNER_MEMO_KEY = "teamrun";
export interface ScheduleOwner {
    managedBy: 'teamrun';
    /** `cli` (`teamrun schedule create`) or `sync` (declared in teamrun.yaml; `sync --prune` may delete it). */
    source: 'cli' | 'sync';
    /** Task queue the schedule starts runs on; sync only prunes schedules of its own queue. */
    taskQueue: string;
}
/** Everything a team schedule is made of; its fingerprint says whether a declared one changed. */
export interface TeamScheduleSpec {
    id: string;
    plan: TeamPlanInput;
    cron?: string;
    /** Interval in milliseconds. */
    everyMs?: number;
    overlap: OverlapName;
    paused: boolean;
    timezone?: string;
    taskQueue: string;
}
export declare class ScheduleError extends TeamrunError {
    readonly code: 'invalid_plan' | 'invalid_spec' | 'not_found' | 'already_exists' | 'not_owned';
    constructor(code: 'invalid_plan' | 'invalid_spec' | 'not_found' | 'already_exists' | 'not_owned', message: string);
}
/** Parses `90s`, `15m`, `1h30m`, `1d`, `500ms` into milliseconds. */
export declare function parseEvery(text: string): number;
/** A stable digest of everything sync compares (plan, timing, overlap, paused, queue). */
export declare function fingerprint(spec: TeamScheduleSpec): string;
/** The timing as the user wrote it (`cron "0 3 * * *" Europe/Berlin`, `every 1h`); the server keeps only calendars. */
export declare function declaredTiming(spec: Pick<TeamScheduleSpec, 'cron' | 'everyMs' | 'timezone'>): string;
/** Creates a schedule of team runs after checking the plan; default overlap is `skip`. */
export declare function createTeamSchedule(client: Client, spec: TeamScheduleSpec, source?: ScheduleOwner['source']): Promise<import("@temporalio/client").ScheduleHandle>;
/** Replaces a schedule's spec, action, policy and paused state with `spec`. */
export declare function updateTeamSchedule(client: Client, spec: TeamScheduleSpec, source: ScheduleOwner['source']): Promise<void>;
/** The teamrun owner mark of a schedule, or null when teamrun did not create it. */
export declare function scheduleOwner(memo: Record<string, unknown> | undefined): ScheduleOwner | null;
/** What teamrun recorded in a schedule's action when it last wrote it: the fingerprint and the declared timing. */
export declare function recordedAction(description: ScheduleDescription): {
    fingerprint: string | null;
    when: string | null;
};
export declare function describeTeamSchedule(client: Client, id: string): Promise<ScheduleDescription>;
/** One line's worth of a schedule, for `schedule list`. */
export interface TeamScheduleRow {
    id: string;
    team: string | null;
    spec: string;
    paused: boolean;
    owner: ScheduleOwner | null;
    nextRun: Date | null;
    lastRun: {
        workflowId: string;
        at: Date;
    } | null;
}
/** Every schedule in the namespace that starts `teamRun` (listing is eventually consistent). */
export declare function listTeamSchedules(client: Client): Promise<TeamScheduleRow[]>;
/** The team a schedule starts: its TeamName search attribute, else the name of the plan in its action's arguments. */
export declare function scheduledTeam(description: ScheduleDescription | null): string | null;
/** A short human form of a schedule's timing (the server stores cron as calendars). */
export declare function describeSpec(spec: ScheduleSummary['spec']): string;
export declare function formatMs(ms: number): string;
/** Starts one run now, under the schedule's own overlap policy unless `overlap` overrides it. */
export declare function triggerTeamSchedule(client: Client, id: string, overlap?: OverlapName): Promise<ScheduleOverlapPolicy>;
export declare function pauseTeamSchedule(client: Client, id: string, reason?: string): Promise<void>;
export declare function unpauseTeamSchedule(client: Client, id: string, reason?: string): Promise<void>;
export declare function deleteTeamSchedule(client: Client, id: string): Promise<void>;
/** The overlap name of a Temporal policy (`SKIP` -> `skip`). */
export declare function overlapName(policy: ScheduleOverlapPolicy): string;
