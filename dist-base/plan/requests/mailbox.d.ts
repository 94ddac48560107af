/**
 * What a mailbox request may be: the mailbox's bounds, the recipients that are not task keys,
 * the zod schemas of `sendMessage` / `readInbox` and the parser that refuses with the mailbox's
 * codes. The mailbox itself (held messages, cursors) is mailbox.ts's.
 */
import { z } from 'zod';
/**
 * Bounds of a run's mailbox. It lives in the run's state and travels in the continue-as-new
 * snapshot, so its worst case is counted there: `totalBytes` of messages, plus one cursor per
 * recipient that has read (tasks as delta-coded plan indices grouped by cursor: about two
 * bytes each). With the members, under 192 KiB at every bound (test/unit/mailbox.test.ts).
 * docs/messaging.md lists them.
 */
export declare const MAILBOX_LIMITS: {
    /** A message's `body`, as JSON. */
    readonly bodyBytes: number;
    readonly subjectChars: 200;
    /** `from` when it is not a task key (a person's name). */
    readonly fromChars: 200;
    /** Messages held at once. */
    readonly messages: 100;
    /** JSON bytes of all held messages. */
    readonly totalBytes: number;
    /** Messages one read (or one attempt's start) hands over; the rest wait for the next read. */
    readonly readBatch: 50;
    /** `::teamrun-message::` lines one attempt may leave; later ones are ignored. */
    readonly perAttempt: 10;
    /** A `messages` query page. */
    readonly queryPage: 100;
};
/**
 * A recipient is a task key, `teammate-<n>`, `coordinator` (humans) or `*` (every task not settled, but the sender).
 */
export declare const COORDINATOR = "coordinator";
export declare const BROADCAST = "*";
export declare const SendMessageSchema: z.ZodObject<{
    from: z.ZodString;
    to: z.ZodString;
    subject: z.ZodOptional<z.ZodString>;
    body: z.ZodUnknown;
    fencingToken: z.ZodOptional<z.ZodUnion<readonly [z.ZodNumber, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>]>>;
    requestId: z.ZodOptional<z.ZodString>;
    actor: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type SendMessageRequest = z.infer<typeof SendMessageSchema>;
export declare const ReadInboxSchema: z.ZodObject<{
    key: z.ZodString;
    fencingToken: z.ZodUnion<readonly [z.ZodNumber, z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>]>;
    peek: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strip>;
export type ReadInboxRequest = z.infer<typeof ReadInboxSchema>;
/**
 * Parses a mailbox request: a field too long is TEAM_MAILBOX_MESSAGE_TOO_LARGE, anything else wrong
 * TEAM_MAILBOX_MESSAGE_INVALID.
 */
export declare function parseMailbox<T>(schema: z.ZodType<T>, payload: unknown, message: string): T;
