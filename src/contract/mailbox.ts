/**
 * The team's messaging as the contract states it: mailbox messages, the `sendMessage` and
 * `readInbox` updates' answers, the `messages` and `members` queries. Request shapes are their zod
 * schemas' (src/plan/requests/mailbox.ts); src/team/mailbox.ts and members.ts must satisfy the rest.
 */
export type { ReadInboxRequest, SendMessageRequest } from '../plan/requests/mailbox';

/**
 * What an attempt's worker adds to a `sendMessage`, `readInbox` or `addTasks` request it sends for
 * a task (the optional `attempt` field): its stop queue and a one-time nonce. The run asks that
 * worker to confirm the nonce before it takes the request as the task's; a request that claims to
 * be a task without it is a person's, checked against `governance.operators`.
 */
export interface AttemptProof {
  /** The worker's own task queue (at most 300 chars). */
  queue: string;
  /** 16..64 chars of [A-Za-z0-9_-], used once. */
  nonce: string;
  /**
   * An attempt's result or failure, an attempt's message, a ledger update: the worker's Ed25519 public key (raw,
   * base64url) and its signature of the request with this nonce (`signedProofText`, `signedAskText`,
   * `signedLedgerText`). A run (a ledger) that confirmed the key with the worker on `queue` once takes the worker's
   * later signed requests without asking again (src/workflows/signed-proofs.ts, signed-asks.ts).
   */
  signingKey?: string;
  signature?: string;
  /**
   * A message or a ledger update: when the worker signed it (its clock, ms since the epoch). It is taken on its
   * signature only while it is fresh, and its nonce is remembered while the worker would confirm it.
   */
  signedAt?: number;
}

export interface MailMessage {
  id: number;
  from: string;
  to: string;
  subject: string | null;
  body: unknown;
  at: number;
}

/** Mailbox pressure: high from 80 % of either bound, critical from 95 %, full when a send was refused. */
export type PressureLevel = 'normal' | 'high' | 'critical' | 'full';

export type MailboxCode =
  'TEAM_MAILBOX_MESSAGE_INVALID' | 'TEAM_MAILBOX_MESSAGE_TOO_LARGE' | 'TEAM_MAILBOX_CAPACITY_EXCEEDED';

/** The `sendMessage` update's answer: the message's id. */
export interface SendMessageVerdict {
  ok: true;
  id: number;
}

/** Why `sendMessage` is refused (the update's failure type). */
export type SendMessageRejectReason = MailboxCode | 'stale_attempt' | 'forbidden';

/** The `readInbox` update's answer: what waited for the task (at most one batch). */
export interface ReadInboxAnswer {
  messages: MailMessage[];
}

/** Why `readInbox` is refused (the update's failure type). */
export type ReadInboxRejectReason = 'not_found' | 'stale_attempt' | 'invalid_request' | 'value_too_large';

/** The `messages` query's argument. */
export interface MessagesQuery {
  to?: string;
  after?: number;
  limit?: number;
}

/** The `messages` query's answer; `nextId` is where to continue (`after`). */
/** A run's mailbox in its result: messages sent in all, held at the end (and their bytes), pressure, refusals. */
export interface MailboxStatus {
  sent: number;
  messages: number;
  bytes: number;
  pressure: PressureLevel;
  /** Sends refused for capacity since the last accepted one. */
  refused: number;
}

export interface MessagesPage {
  messages: MailMessage[];
  nextId: number;
}

export type MemberState = 'idle' | 'running' | 'shutdown';

/** One teammate slot, as the `members` query shows it. */
export interface MemberRecord {
  holder: string;
  state: MemberState;
  currentTask: string | null;
  /** Attempts this slot ran that succeeded, and that ended any other way. */
  completed: number;
  failed: number;
  lastError: string | null;
  /** When the slot entered its state. */
  since: number;
}
