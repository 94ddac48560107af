/**
 * The team's members: one record per teammate slot, moved as attempts start and end, and the
 * idle hooks that follow. Knows nothing of tasks or leases beyond what the run tells it.
 */
import type { MemberRecord, MemberState } from '../contract';
export type { MemberRecord, MemberState };
/** A member's `lastError` is clipped to this: the records travel in the snapshot, one per slot (up to 256). */
export declare const MEMBER_ERROR_CHARS = 120;
/** What the workflow runs when a slot goes idle (`hooks.teammateIdle`): the member record is its input. */
export interface IdleHookRequest {
    member: MemberRecord;
    /** Counts idle hooks in this run: the hook's activity id is `hook:teammateIdle:<holder>#<seq>`. */
    seq: number;
}
export interface MembersSnapshot {
    members: MemberRecord[];
    hookSeq: number;
}
export declare const emptyMembers: (teammates: number, now: number) => MembersSnapshot;
/**
 * The team's members: one record per teammate slot, moved by the run as attempts start and
 * end. Records `teammate:state` on every real change and `teammate:idle` when a slot returns
 * to idle from running, and hands the workflow an idle hook to run when the plan names one.
 */
export declare class Members {
    private readonly hasIdleHook;
    private readonly record;
    private readonly members;
    private hookSeq;
    private readonly hooks;
    constructor(snapshot: MembersSnapshot, hasIdleHook: boolean, record: (type: string, fields: Record<string, unknown>) => void);
    snapshot(): MembersSnapshot;
    view(): MemberRecord[];
    /** An attempt of `key` started on slot `holder`. */
    started(holder: string, key: string, now: number): void;
    /** The attempt on `holder` ended: `ok` when it succeeded; `error` says why it did not. */
    ended(holder: string, ok: boolean, error: string | null, now: number): void;
    /**
     * The attempt on `holder` never started (its ledger refused it, or it was stopped first): idle again, counting
     * nothing.
     */
    unclaimed(holder: string, now: number): void;
    /** The run closed: every slot is shut down. */
    shutdown(now: number): void;
    /** Idle hooks the workflow must start now. */
    drainHooks(): IdleHookRequest[];
    private find;
    private move;
}
