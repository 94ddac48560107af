/**
 * `ctx.sendMessage` and `ctx.readInbox` for executors written in TypeScript: the attempt speaks to
 * its run's mailbox as itself, through the worker's attempt gateway (the door `teamrun send` and
 * `teamrun inbox` use inside a task): the gateway fills in the task and its fencing token, redacts,
 * and sends with a one-time proof the run confirms with this worker. No new door, no credential.
 */
import type { MailMessage, ReadInboxAnswer, SendMessageVerdict } from '../../contract';
import { TeamrunError } from '../../errors';
import type { AttemptMessage } from '../interface';

/** How the worker's attempt gateway sends a message as the attempt (gateway/opened.ts). */
export type AttemptAsk = (
  message: Extract<AttemptMessage, 'sendMessage' | 'readInbox' | 'extendReservation'>,
  body: Record<string, unknown>,
) => Promise<{ ok: true; answer: unknown } | { ok: false; code: string; message: string }>;

/** The run refused an attempt's mailbox message; `code` is the update's (`stale_attempt`, `TEAM_MAILBOX_...`). */
export class MailboxRefused extends TeamrunError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MailboxRefused';
  }
}

export interface MailboxAccess {
  /** Sends a message as this attempt: `to` a task key, `teammate-<n>`, `coordinator` or `*`. */
  sendMessage(message: { to: string; body: string; subject?: string }): Promise<SendMessageVerdict>;
  /** What waits in the task's inbox now (one batch), its cursor advanced unless `peek`. */
  readInbox(options?: { peek?: boolean }): Promise<MailMessage[]>;
}

export function mailboxAccess(ask: AttemptAsk): MailboxAccess {
  const send = async <T>(message: 'sendMessage' | 'readInbox', body: Record<string, unknown>): Promise<T> => {
    const answer = await ask(message, body);
    if (!answer.ok) throw new MailboxRefused(answer.code, `${message} refused: ${answer.code}: ${answer.message}`);
    return answer.answer as T;
  };
  return {
    sendMessage: ({ to, body, subject }) => send<SendMessageVerdict>('sendMessage', { to, body, subject }),
    readInbox: async (options = {}) =>
      (await send<ReadInboxAnswer>('readInbox', { peek: options.peek === true })).messages,
  };
}
