/**
 * What a mailbox request may be: the mailbox's bounds, the recipients that are not task keys,
 * the zod schemas of `sendMessage` / `readInbox` and the parser that refuses with the mailbox's
 * codes. The mailbox itself (held messages, cursors) is mailbox.ts's.
 */
import { z } from 'zod';
import { parseRequest } from './control';

/**
 * Bounds of a run's mailbox. It lives in the run's state and travels in the continue-as-new
 * snapshot, so its worst case is counted there: `totalBytes` of messages, plus one cursor per
 * recipient that has read (tasks as delta-coded plan indices grouped by cursor: about two
 * bytes each). With the members, under 192 KiB at every bound (test/unit/mailbox.test.ts).
 * docs/messaging.md lists them.
 */
export const MAILBOX_LIMITS = {
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
} as const;

/**
 * A recipient is a task key, `teammate-<n>`, `coordinator` (humans) or `*` (every task not settled, but the sender).
 */
export const COORDINATOR = 'coordinator';
export const BROADCAST = '*';

export const SendMessageSchema = z.object({
  from: z.string().min(1).max(MAILBOX_LIMITS.fromChars),
  to: z.string().min(1).max(128),
  subject: z.string().max(MAILBOX_LIMITS.subjectChars).optional(),
  body: z.unknown(),
  fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  requestId: z.string().min(1).max(200).optional(),
  actor: z.string().min(1).max(200).optional(),
});
export type SendMessageRequest = z.infer<typeof SendMessageSchema>;

export const ReadInboxSchema = z.object({
  key: z.string().min(1).max(128),
  fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
  peek: z.boolean().optional(),
});
export type ReadInboxRequest = z.infer<typeof ReadInboxSchema>;

/**
 * Parses a mailbox request: a field too long is TEAM_MAILBOX_MESSAGE_TOO_LARGE, anything else wrong
 * TEAM_MAILBOX_MESSAGE_INVALID.
 */
export function parseMailbox<T>(schema: z.ZodType<T>, payload: unknown, message: string): T {
  return parseRequest(schema, payload, message, {
    tooLarge: 'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
    malformed: () => 'TEAM_MAILBOX_MESSAGE_INVALID',
    withField: false,
  });
}
