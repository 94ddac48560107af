"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReadInboxSchema = exports.SendMessageSchema = exports.BROADCAST = exports.COORDINATOR = exports.MAILBOX_LIMITS = void 0;
exports.parseMailbox = parseMailbox;
/**
 * What a mailbox request may be: the mailbox's bounds, the recipients that are not task keys,
 * the zod schemas of `sendMessage` / `readInbox` and the parser that refuses with the mailbox's
 * codes. The mailbox itself (held messages, cursors) is mailbox.ts's.
 */
const zod_1 = require("zod");
const control_1 = require("./control");
/**
 * Bounds of a run's mailbox. It lives in the run's state and travels in the continue-as-new
 * snapshot, so its worst case is counted there: `totalBytes` of messages, plus one cursor per
 * recipient that has read (tasks as delta-coded plan indices grouped by cursor: about two
 * bytes each). With the members, under 192 KiB at every bound (test/unit/mailbox.test.ts).
 * docs/messaging.md lists them.
 */
exports.MAILBOX_LIMITS = {
    /** A message's `body`, as JSON. */
    bodyBytes: 8 * 1024,
    subjectChars: 200,
    /** `from` when it is not a task key (a person's name). */
    fromChars: 200,
    /** Messages held at once. */
    messages: 100,
    /** JSON bytes of all held messages. */
    totalBytes: 64 * 1024,
    /** Messages one read (or one attempt's start) hands over; the rest wait for the next read. */
    readBatch: 50,
    /** `::teamrun-message::` lines one attempt may leave; later ones are ignored. */
    perAttempt: 10,
    /** A `messages` query page. */
    queryPage: 100,
};
/**
 * A recipient is a task key, `teammate-<n>`, `coordinator` (humans) or `*` (every task not settled, but the sender).
 */
exports.COORDINATOR = 'coordinator';
exports.BROADCAST = '*';
exports.SendMessageSchema = zod_1.z.object({
    from: zod_1.z.string().min(1).max(exports.MAILBOX_LIMITS.fromChars),
    to: zod_1.z.string().min(1).max(128),
    subject: zod_1.z.string().max(exports.MAILBOX_LIMITS.subjectChars).optional(),
    body: zod_1.z.unknown(),
    fencingToken: zod_1.z.union([zod_1.z.number().int(), zod_1.z.string().regex(/^\d+$/).transform(Number)]).optional(),
    requestId: zod_1.z.string().min(1).max(200).optional(),
    actor: zod_1.z.string().min(1).max(200).optional(),
});
exports.ReadInboxSchema = zod_1.z.object({
    key: zod_1.z.string().min(1).max(128),
    fencingToken: zod_1.z.union([zod_1.z.number().int(), zod_1.z.string().regex(/^\d+$/).transform(Number)]),
    peek: zod_1.z.boolean().optional(),
});
/**
 * Parses a mailbox request: a field too long is TEAM_MAILBOX_MESSAGE_TOO_LARGE, anything else wrong
 * TEAM_MAILBOX_MESSAGE_INVALID.
 */
function parseMailbox(schema, payload, message) {
    return (0, control_1.parseRequest)(schema, payload, message, {
        tooLarge: 'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
        malformed: () => 'TEAM_MAILBOX_MESSAGE_INVALID',
        withField: false,
    });
}
