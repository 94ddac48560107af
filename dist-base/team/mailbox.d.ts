/**
 * The run's mailbox: messages held in the run's state with their bounds, per-recipient cursors
 * and compaction (what a request may be is src/plan/requests/mailbox.ts's). Knows the run only through
 * `MailboxRun`; who may send or read is the run's rule (src/team/messaging.ts).
 */
import type { MailboxCode, MailMessage, MessagesPage, MessagesQuery, PressureLevel } from '../contract';
import { type SendMessageRequest } from '../plan/requests/mailbox';
export type { MailboxCode, MailMessage, MessagesQuery, PressureLevel };
export { BROADCAST, COORDINATOR, MAILBOX_LIMITS, ReadInboxSchema, SendMessageSchema, parseMailbox, type ReadInboxRequest, type SendMessageRequest, } from '../plan/requests/mailbox';
export interface MailboxSnapshot {
    nextId: number;
    messages: MailMessage[];
    /**
     * `[cursor, task plan indices, other recipients]`: everyone listed has had every message up to
     * `cursor` for them. The indices are ascending and delta-coded (each the gap from the one
     * before), so a cursor per task costs about two bytes.
     */
    cursors: Array<[number, number[], string[]?]>;
    level: PressureLevel;
    /** Sends refused for capacity since the last accepted one (absent when none): what backpressure events count. */
    refused?: number;
}
export declare const emptyMailbox: () => MailboxSnapshot;
/** What the mailbox needs to know of the run: its tasks, its teammate slots, and which tasks may still read. */
export interface MailboxRun {
    keys: readonly string[];
    indexOf(key: string): number | undefined;
    teammates: number;
    /** A task that will never read again (succeeded, failed, skipped): nothing waits on its delivery. */
    settled(index: number): boolean;
    record(type: string, fields: Record<string, unknown>): void;
}
/**
 * A run's mailbox: messages with monotonic ids, and one cursor per recipient (a task key or a
 * teammate slot) up to which it has had its messages, so a broadcast reaches each recipient
 * once. Bounded by count and bytes; when full, only messages nobody still waits for are
 * compacted, and a send that still does not fit is refused with a code.
 */
export declare class Mailbox {
    private readonly run;
    private nextId;
    private readonly messages;
    private readonly sizes;
    private bytes;
    private readonly cursors;
    private level;
    private refused;
    constructor(snapshot: MailboxSnapshot, run: MailboxRun);
    snapshot(): MailboxSnapshot;
    /** Checks a message's recipient and size; throws the mailbox's codes. */
    check(request: Pick<SendMessageRequest, 'from' | 'to' | 'subject' | 'body'>): number;
    /**
     * Refuses with TEAM_MAILBOX_CAPACITY_EXCEEDED a message of `size` bytes that would not fit even once delivered
     * messages are compacted away. Changes nothing, so an update's validator can ask it: a send refused there never
     * reaches history.
     */
    checkRoom(size: number): void;
    /**
     * Adds a message, compacting delivered ones when full; refused with TEAM_MAILBOX_CAPACITY_EXCEEDED when it still does
     * not fit. Refusals of one pressure episode (until a send is accepted) are counted, and recorded as
     * `mailbox:backpressure` at the 1st, 2nd, 4th, 8th... only: a sender retrying in a loop cannot flood the events.
     */
    send(request: Pick<SendMessageRequest, 'from' | 'to' | 'subject' | 'body'>, now: number): MailMessage;
    /**
     * The messages waiting for task `key` whose attempt runs as `holder`: sent to it, to its
     * teammate slot, or broadcast by another. Advances its cursors unless `peek`.
     */
    deliver(key: string, holder: string | null, peek: boolean): MailMessage[];
    /** The `messages` query: held messages after `after`, optionally to one recipient. */
    page(query?: MessagesQuery): MessagesPage;
    get pressureLevel(): PressureLevel;
    get held(): {
        messages: number;
        bytes: number;
    };
    private isRecipient;
    /** The refusal of a send that does not fit beside the `messages` (`bytes`) nobody has had yet. */
    private full;
    private fits;
    private floor;
    /** Whether nobody still waits for message `m`: every recipient it has has had it, or will never read. */
    private delivered;
    /** Drops messages nobody still waits for; keeps the rest in order. */
    private compact;
    private pressure;
    private setLevel;
}
