/**
 * The run's mailbox: messages held in the run's state with their bounds, per-recipient cursors
 * and compaction (what a request may be is src/plan/requests/mailbox.ts's). Knows the run only through
 * `MailboxRun`; who may send or read is the run's rule (src/team/messaging.ts).
 */
import type { MailboxCode, MailboxStatus, MailMessage, MessagesPage, MessagesQuery, PressureLevel } from '../contract';
import { jsonBytes } from '../plan/bytes';
import { TeamControlError } from '../plan/requests/control';
import { BROADCAST, COORDINATOR, MAILBOX_LIMITS, type SendMessageRequest } from '../plan/requests/mailbox';

export type { MailboxCode, MailMessage, MessagesQuery, PressureLevel };
export {
  BROADCAST,
  COORDINATOR,
  MAILBOX_LIMITS,
  ReadInboxSchema,
  SendMessageSchema,
  parseMailbox,
  type ReadInboxRequest,
  type SendMessageRequest,
} from '../plan/requests/mailbox';

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

export const emptyMailbox = (): MailboxSnapshot => ({ nextId: 1, messages: [], cursors: [], level: 'normal' });

/** What the mailbox needs to know of the run: its tasks, its teammate slots, and which tasks may still read. */
export interface MailboxRun {
  keys: readonly string[];
  indexOf(key: string): number | undefined;
  teammates: number;
  /** A task that will never read again (succeeded, failed, skipped): nothing waits on its delivery. */
  settled(index: number): boolean;
  record(type: string, fields: Record<string, unknown>): void;
}

const mailboxError = (code: MailboxCode, message: string) => new TeamControlError(code, `sendMessage: ${message}`);

/**
 * A run's mailbox: messages with monotonic ids, and one cursor per recipient (a task key or a
 * teammate slot) up to which it has had its messages, so a broadcast reaches each recipient
 * once. Bounded by count and bytes; when full, only messages nobody still waits for are
 * compacted, and a send that still does not fit is refused with a code.
 */
export class Mailbox {
  private nextId: number;
  private readonly messages: MailMessage[];
  private readonly sizes: number[];
  private bytes = 0;
  private readonly cursors = new Map<string, number>();
  private level: PressureLevel;
  private refused: number;

  constructor(
    snapshot: MailboxSnapshot,
    private readonly run: MailboxRun,
  ) {
    this.nextId = snapshot.nextId;
    this.messages = [...snapshot.messages];
    this.sizes = this.messages.map((m) => jsonBytes(m));
    for (const size of this.sizes) this.bytes += size;
    this.level = snapshot.level;
    this.refused = snapshot.refused ?? 0;
    for (const [cursor, gaps, others] of snapshot.cursors) {
      let i = 0;
      for (const gap of gaps) this.cursors.set(run.keys[(i += gap)], cursor);
      for (const name of others ?? []) this.cursors.set(name, cursor);
    }
  }

  snapshot(): MailboxSnapshot {
    const byCursor = new Map<number, [number, number[], string[]?]>();
    const floor = this.floor();
    for (const [name, cursor] of this.cursors) {
      // A cursor below every held message says nothing an absent one does not.
      if (cursor <= floor) continue;
      let group = byCursor.get(cursor);
      if (!group) byCursor.set(cursor, (group = [cursor, []]));
      const i = this.run.indexOf(name);
      if (i !== undefined) group[1].push(i);
      else (group[2] ??= []).push(name);
    }
    const cursors = [...byCursor.values()].map(([cursor, indices, others]): [number, number[], string[]?] => {
      indices.sort((a, b) => a - b);
      const gaps = indices.map((i, n) => (n === 0 ? i : i - indices[n - 1]));
      return others ? [cursor, gaps, others] : [cursor, gaps];
    });
    const refused = this.refused ? { refused: this.refused } : {};
    return { nextId: this.nextId, messages: [...this.messages], cursors, level: this.level, ...refused };
  }

  /** Checks a message's recipient and size; throws the mailbox's codes. */
  check(request: Pick<SendMessageRequest, 'from' | 'to' | 'subject' | 'body'>): number {
    if (request.body === undefined) throw mailboxError('TEAM_MAILBOX_MESSAGE_INVALID', 'body is required (any JSON)');
    if (!this.isRecipient(request.to)) {
      throw mailboxError(
        'TEAM_MAILBOX_MESSAGE_INVALID',
        `to: "${request.to.slice(0, 128)}" is not a task key of this run, ` +
          `teammate-1..teammate-${this.run.teammates}, "${COORDINATOR}" or "${BROADCAST}"`,
      );
    }
    if (request.to === request.from)
      throw mailboxError('TEAM_MAILBOX_MESSAGE_INVALID', `to: "${request.to}" is the sender`);
    const bodyBytes = jsonBytes(request.body);
    if (bodyBytes > MAILBOX_LIMITS.bodyBytes) {
      throw mailboxError(
        'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
        `body is ${bodyBytes} bytes as JSON, over the ${MAILBOX_LIMITS.bodyBytes}-byte bound`,
      );
    }
    const size = jsonBytes({
      id: this.nextId,
      from: request.from,
      to: request.to,
      subject: request.subject ?? null,
      body: request.body,
      at: 0,
    });
    if (size > MAILBOX_LIMITS.totalBytes) {
      throw mailboxError(
        'TEAM_MAILBOX_MESSAGE_TOO_LARGE',
        `the message is ${size} bytes, over the mailbox's ${MAILBOX_LIMITS.totalBytes} bytes`,
      );
    }
    return size;
  }

  /**
   * Refuses with TEAM_MAILBOX_CAPACITY_EXCEEDED a message of `size` bytes that would not fit even once delivered
   * messages are compacted away. Changes nothing, so an update's validator can ask it: a send refused there never
   * reaches history.
   */
  checkRoom(size: number): void {
    if (this.fits(size)) return;
    let messages = 0;
    let bytes = 0;
    this.messages.forEach((m, i) => {
      if (this.delivered(m)) return;
      messages += 1;
      bytes += this.sizes[i];
    });
    if (messages + 1 > MAILBOX_LIMITS.messages || bytes + size > MAILBOX_LIMITS.totalBytes)
      throw this.full(messages, bytes);
  }

  /**
   * Adds a message, compacting delivered ones when full; refused with TEAM_MAILBOX_CAPACITY_EXCEEDED when it still does
   * not fit. Refusals of one pressure episode (until a send is accepted) are counted, and recorded as
   * `mailbox:backpressure` at the 1st, 2nd, 4th, 8th... only: a sender retrying in a loop cannot flood the events.
   */
  send(request: Pick<SendMessageRequest, 'from' | 'to' | 'subject' | 'body'>, now: number): MailMessage {
    const size = this.check(request);
    if (!this.fits(size)) this.compact();
    if (!this.fits(size)) {
      this.refused += 1;
      if (Number.isInteger(Math.log2(this.refused))) {
        this.run.record('mailbox:backpressure', {
          from: request.from,
          to: request.to,
          refused: this.refused,
          messages: this.messages.length,
          bytes: this.bytes,
          limits: { messages: MAILBOX_LIMITS.messages, bytes: MAILBOX_LIMITS.totalBytes },
        });
      }
      this.setLevel('full');
      throw this.full(this.messages.length, this.bytes);
    }
    this.refused = 0;
    const message: MailMessage = {
      id: this.nextId++,
      from: request.from,
      to: request.to,
      subject: request.subject ?? null,
      body: request.body,
      at: now,
    };
    this.messages.push(message);
    this.sizes.push(size);
    this.bytes += size;
    this.run.record('mailbox:sent', {
      id: message.id,
      from: message.from,
      to: message.to,
      subject: message.subject,
      bytes: size,
    });
    this.setLevel(this.pressure());
    return message;
  }

  /**
   * The messages waiting for task `key` whose attempt runs as `holder`: sent to it, to its
   * teammate slot, or broadcast by another. Advances its cursors unless `peek`.
   */
  deliver(key: string, holder: string | null, peek: boolean): MailMessage[] {
    const own = this.cursors.get(key) ?? 0;
    const slot = holder === null ? Number.MAX_SAFE_INTEGER : (this.cursors.get(holder) ?? 0);
    const out: MailMessage[] = [];
    for (const m of this.messages) {
      if (out.length >= MAILBOX_LIMITS.readBatch) break;
      const forTask = m.id > own && (m.to === key || (m.to === BROADCAST && m.from !== key));
      const forSlot = m.id > slot && m.to === holder;
      if (forTask || forSlot) out.push(m);
    }
    if (peek || out.length === 0) return out;
    const last = out[out.length - 1].id;
    // Up to the last handed over; messages past the batch stay for the next read.
    this.cursors.set(key, Math.max(own, last));
    if (holder !== null) this.cursors.set(holder, Math.max(slot, last));
    this.run.record('mailbox:delivered', { to: key, holder, ids: out.map((m) => m.id) });
    this.setLevel(this.pressure());
    return out;
  }

  /** The `messages` query: held messages after `after`, optionally to one recipient. */
  page(query: MessagesQuery = {}): MessagesPage {
    const after = Math.max(0, query.after ?? 0);
    const limit = Math.min(Math.max(0, query.limit ?? MAILBOX_LIMITS.queryPage), MAILBOX_LIMITS.queryPage);
    const messages = this.messages
      .filter((m) => m.id > after && (query.to === undefined || m.to === query.to))
      .slice(0, limit);
    return { messages, nextId: messages.length ? messages[messages.length - 1].id : Math.max(after, this.nextId - 1) };
  }

  get pressureLevel(): PressureLevel {
    return this.level;
  }

  /** What a run's result says of its mailbox: sent in all, held now (and their bytes), its pressure, refusals. */
  status(): MailboxStatus {
    return { sent: this.nextId - 1, ...this.held, pressure: this.level, refused: this.refused };
  }

  get held(): { messages: number; bytes: number } {
    return { messages: this.messages.length, bytes: this.bytes };
  }

  private isRecipient(to: string): boolean {
    if (to === COORDINATOR || to === BROADCAST) return true;
    if (this.run.indexOf(to) !== undefined) return true;
    const slot = /^teammate-([1-9]\d{0,2})$/.exec(to);
    return slot !== null && Number(slot[1]) <= this.run.teammates;
  }

  /** The refusal of a send that does not fit beside the `messages` (`bytes`) nobody has had yet. */
  private full(messages: number, bytes: number): TeamControlError {
    return mailboxError(
      'TEAM_MAILBOX_CAPACITY_EXCEEDED',
      `the mailbox holds ${messages} messages (${bytes} bytes) not yet read by their recipients; ` +
        `at most ${MAILBOX_LIMITS.messages} messages and ${MAILBOX_LIMITS.totalBytes} bytes: try again once they ` +
        `have read`,
    );
  }

  private fits(size: number): boolean {
    return this.messages.length + 1 <= MAILBOX_LIMITS.messages && this.bytes + size <= MAILBOX_LIMITS.totalBytes;
  }

  private floor(): number {
    return this.messages.length ? this.messages[0].id - 1 : this.nextId - 1;
  }

  /** Whether nobody still waits for message `m`: every recipient it has has had it, or will never read. */
  private delivered(m: MailMessage): boolean {
    if (m.to === COORDINATOR) return true;
    const had = (name: string) => (this.cursors.get(name) ?? 0) >= m.id;
    if (m.to === BROADCAST) {
      return this.run.keys.every((key, i) => key === m.from || this.run.settled(i) || had(key));
    }
    const i = this.run.indexOf(m.to);
    if (i !== undefined) return this.run.settled(i) || had(m.to);
    return had(m.to);
  }

  /** Drops messages nobody still waits for; keeps the rest in order. */
  private compact(): void {
    let dropped = 0;
    for (let i = 0; i < this.messages.length;) {
      if (this.delivered(this.messages[i])) {
        this.bytes -= this.sizes[i];
        this.messages.splice(i, 1);
        this.sizes.splice(i, 1);
        dropped += 1;
      } else i += 1;
    }
    if (dropped) this.run.record('mailbox:compacted', { dropped, held: this.messages.length, bytes: this.bytes });
  }

  private pressure(): PressureLevel {
    const use = Math.max(this.messages.length / MAILBOX_LIMITS.messages, this.bytes / MAILBOX_LIMITS.totalBytes);
    if (use >= 1) return 'full';
    if (use >= 0.95) return 'critical';
    if (use >= 0.8) return 'high';
    return 'normal';
  }

  private setLevel(level: PressureLevel): void {
    if (level === this.level) return;
    const previous = this.level;
    this.level = level;
    this.run.record('mailbox:pressure', { level, previous, messages: this.messages.length, bytes: this.bytes });
  }
}
