/**
 * The team's members: one record per teammate slot, moved as attempts start and end, and the
 * idle hooks that follow. Knows nothing of tasks or leases beyond what the run tells it.
 */
import type { MemberRecord, MemberState } from '../contract';

export type { MemberRecord, MemberState };

/** A member's `lastError` is clipped to this: the records travel in the snapshot, one per slot (up to 256). */
export const MEMBER_ERROR_CHARS = 120;

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

export const emptyMembers = (teammates: number, now: number): MembersSnapshot => ({
  members: Array.from({ length: teammates }, (_, i) => ({
    holder: `teammate-${i + 1}`,
    state: 'idle' as const,
    currentTask: null,
    completed: 0,
    failed: 0,
    lastError: null,
    since: now,
  })),
  hookSeq: 0,
});

/**
 * The team's members: one record per teammate slot, moved by the run as attempts start and
 * end. Records `teammate:state` on every real change and `teammate:idle` when a slot returns
 * to idle from running, and hands the workflow an idle hook to run when the plan names one.
 */
export class Members {
  private readonly members: MemberRecord[];
  private hookSeq: number;
  private readonly hooks: IdleHookRequest[] = [];

  constructor(
    snapshot: MembersSnapshot,
    private readonly hasIdleHook: boolean,
    private readonly record: (type: string, fields: Record<string, unknown>) => void,
  ) {
    this.members = snapshot.members.map((m) => ({ ...m }));
    this.hookSeq = snapshot.hookSeq;
  }

  snapshot(): MembersSnapshot {
    return { members: this.members.map((m) => ({ ...m })), hookSeq: this.hookSeq };
  }

  view(): MemberRecord[] {
    return this.members.map((m) => ({ ...m }));
  }

  /** An attempt of `key` started on slot `holder`. */
  started(holder: string, key: string, now: number): void {
    const member = this.find(holder);
    if (!member) return;
    this.move(member, 'running', key, now);
  }

  /** The attempt on `holder` ended: `ok` when it succeeded; `error` says why it did not. */
  ended(holder: string, ok: boolean, error: string | null, now: number): void {
    const member = this.find(holder);
    if (!member || member.state !== 'running') return;
    if (ok) member.completed += 1;
    else {
      member.failed += 1;
      member.lastError = error === null ? null : error.slice(0, MEMBER_ERROR_CHARS);
    }
    this.move(member, 'idle', null, now);
    this.record('teammate:idle', { holder, completed: member.completed, failed: member.failed });
    if (this.hasIdleHook) this.hooks.push({ member: { ...member }, seq: ++this.hookSeq });
  }

  /**
   * The attempt on `holder` never started (its ledger refused it, or it was stopped first): idle again, counting
   * nothing.
   */
  unclaimed(holder: string, now: number): void {
    const member = this.find(holder);
    if (member?.state === 'running') this.move(member, 'idle', null, now);
  }

  /** The run closed: every slot is shut down. */
  shutdown(now: number): void {
    for (const member of this.members) this.move(member, 'shutdown', null, now);
  }

  /** Idle hooks the workflow must start now. */
  drainHooks(): IdleHookRequest[] {
    return this.hooks.splice(0);
  }

  private find(holder: string): MemberRecord | undefined {
    const slot = /^teammate-(\d+)$/.exec(holder);
    return slot ? this.members[Number(slot[1]) - 1] : undefined;
  }

  private move(member: MemberRecord, state: MemberState, task: string | null, now: number): void {
    if (member.state === state && member.currentTask === task) return;
    const previous = member.state;
    member.state = state;
    member.currentTask = task;
    member.since = now;
    this.record('teammate:state', { holder: member.holder, state, previous, currentTask: task });
  }
}
