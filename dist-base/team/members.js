"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Members = exports.emptyMembers = exports.MEMBER_ERROR_CHARS = void 0;
/** A member's `lastError` is clipped to this: the records travel in the snapshot, one per slot (up to 256). */
exports.MEMBER_ERROR_CHARS = 120;
const emptyMembers = (teammates, now) => ({
    members: Array.from({ length: teammates }, (_, i) => ({
        holder: `teammate-${i + 1}`,
        state: 'idle',
        currentTask: null,
        completed: 0,
        failed: 0,
        lastError: null,
        since: now,
    })),
    hookSeq: 0,
});
exports.emptyMembers = emptyMembers;
/**
 * The team's members: one record per teammate slot, moved by the run as attempts start and
 * end. Records `teammate:state` on every real change and `teammate:idle` when a slot returns
 * to idle from running, and hands the workflow an idle hook to run when the plan names one.
 */
class Members {
    hasIdleHook;
    record;
    members;
    hookSeq;
    hooks = [];
    constructor(snapshot, hasIdleHook, record) {
        this.hasIdleHook = hasIdleHook;
        this.record = record;
        this.members = snapshot.members.map((m) => ({ ...m }));
        this.hookSeq = snapshot.hookSeq;
    }
    snapshot() {
        return { members: this.members.map((m) => ({ ...m })), hookSeq: this.hookSeq };
    }
    view() {
        return this.members.map((m) => ({ ...m }));
    }
    /** An attempt of `key` started on slot `holder`. */
    started(holder, key, now) {
        const member = this.find(holder);
        if (!member)
            return;
        this.move(member, 'running', key, now);
    }
    /** The attempt on `holder` ended: `ok` when it succeeded; `error` says why it did not. */
    ended(holder, ok, error, now) {
        const member = this.find(holder);
        if (!member || member.state !== 'running')
            return;
        if (ok)
            member.completed += 1;
        else {
            member.failed += 1;
            member.lastError = error === null ? null : error.slice(0, exports.MEMBER_ERROR_CHARS);
        }
        this.move(member, 'idle', null, now);
        this.record('teammate:idle', { holder, completed: member.completed, failed: member.failed });
        if (this.hasIdleHook)
            this.hooks.push({ member: { ...member }, seq: ++this.hookSeq });
    }
    /**
     * The attempt on `holder` never started (its ledger refused it, or it was stopped first): idle again, counting
     * nothing.
     */
    unclaimed(holder, now) {
        const member = this.find(holder);
        if (member?.state === 'running')
            this.move(member, 'idle', null, now);
    }
    /** The run closed: every slot is shut down. */
    shutdown(now) {
        for (const member of this.members)
            this.move(member, 'shutdown', null, now);
    }
    /** Idle hooks the workflow must start now. */
    drainHooks() {
        return this.hooks.splice(0);
    }
    find(holder) {
        const slot = /^teammate-(\d+)$/.exec(holder);
        return slot ? this.members[Number(slot[1]) - 1] : undefined;
    }
    move(member, state, task, now) {
        if (member.state === state && member.currentTask === task)
            return;
        const previous = member.state;
        member.state = state;
        member.currentTask = task;
        member.since = now;
        this.record('teammate:state', { holder: member.holder, state, previous, currentTask: task });
    }
}
exports.Members = Members;
