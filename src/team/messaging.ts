/**
 * Messages between the run's members: who may send as whom (a task's attempt with its live fencing
 * token and its worker's proof, the coordinator, an operator), reading a running task's inbox,
 * the `::teamrun-message::` lines of a settling attempt, and the teammateIdle hooks. The mailbox
 * itself (capacity, cursors) is mailbox.ts's, the member records members.ts's.
 */
import type { ReadInboxAnswer, SendMessageVerdict } from '../contract';
import type { ExecutorSpec } from '../plan/schema';
import type { RunContext } from './context';
import { TeamControlError, parseControl } from '../plan/requests/control';
import { callerOf } from '../plan/requests/caller';
import { checkActor, checkTaskClaim } from './governance';
import {
  BROADCAST,
  COORDINATOR,
  MAILBOX_LIMITS,
  ReadInboxSchema,
  SendMessageSchema,
  parseMailbox,
  type ReadInboxRequest,
  type SendMessageRequest,
} from './mailbox';
import type { IdleHookRequest } from './members';
import type { AttemptOutcome } from './types';

/**
 * Every check of a `sendMessage` request, for the update's validator: a send refused here never reaches history, so
 * a sender retrying a full mailbox or a finished task costs the run nothing. Throws `TeamControlError`.
 */
export function validateSendMessage(run: RunContext, payload: unknown): SendMessageRequest {
  const request = checkSendMessage(run, payload);
  const to = run.graph.indexOf(request.to);
  if (to !== undefined && run.graph.isSettled(to)) {
    throw new TeamControlError(
      'TEAM_MAILBOX_MESSAGE_INVALID',
      `sendMessage: to: task "${request.to}" has finished (${run.graph.tasks[to].status}) and reads no more ` +
        `messages; nothing was sent. ${finishedAs(run.graph.tasks[to])}`,
    );
  }
  run.mailbox.checkRoom(run.mailbox.check(request));
  return request;
}

/** What a sender to a finished task is told of it, so a model can act on it: its status, and its output or error. */
function finishedAs(task: RunContext['graph']['tasks'][number]): string {
  const { status } = task;
  if (status === 'succeeded') {
    const output = JSON.stringify(task.output ?? null) ?? 'null';
    const cut = output.length > FINISHED_OUTPUT_CHARS ? ` [cut from ${output.length} characters]` : '';
    return `Its output: ${output.slice(0, FINISHED_OUTPUT_CHARS)}${cut}`;
  }
  const why = task.lastError ?? task.skipReason;
  return why ? `Why: ${why.slice(0, 300)}` : `It ${status}.`;
}

/** A finished task's output, at most, in the refusal of a message to it. */
const FINISHED_OUTPUT_CHARS = 1_000;

/**
 * The checks the update's handler repeats: all but the recipient's state and the mailbox's room, which the handler
 * left to sending when older histories were recorded, and must still leave to it for them to replay the same.
 */
function checkSendMessage(run: RunContext, payload: unknown): SendMessageRequest {
  const caller = callerOf(payload, 'sendMessage');
  const request = parseMailbox(SendMessageSchema, caller.request, 'sendMessage');
  const i = run.graph.indexOf(request.from);
  const asTask = request.fencingToken !== undefined || i !== undefined;
  if (asTask) {
    // A task sends as itself, with its live attempt's token: a stale attempt's word is refused.
    const attempt = run.leases.get(request.from);
    if (i === undefined || !attempt || attempt.fencingToken !== request.fencingToken) {
      throw new TeamControlError(
        'stale_attempt',
        `sendMessage: "${request.from}" has no live attempt with fencing token ` +
          `${request.fencingToken ?? '(none)'}${attempt ? ` (the live one is ${attempt.fencingToken})` : ''}`,
      );
    }
  } else {
    if (/^teammate-\d+$/.test(request.from) || request.from === BROADCAST) {
      throw new TeamControlError(
        'TEAM_MAILBOX_MESSAGE_INVALID',
        `sendMessage: from "${request.from}" is not a sender (a task key with its fencing token, "${COORDINATOR}" or ` +
          `an operator)`,
      );
    }
    checkActor(run.plan, request.actor ?? (request.from === COORDINATOR ? undefined : request.from), 'sendMessage');
  }
  run.mailbox.check(request);
  // Last, so a malformed message gets its own code whoever sends it.
  if (asTask) checkTaskClaim(run.plan, caller, 'sendMessage');
  return request;
}

export function sendMessage(run: RunContext, payload: unknown, now: number): SendMessageVerdict {
  const request = checkSendMessage(run, payload);
  run.clock = now;
  try {
    const message = run.mailbox.send(request, now);
    return { ok: true, id: message.id };
  } finally {
    run.touch();
  }
}

/** `readInbox`: the live attempt of `key` reads what waits for it. */
export function validateReadInbox(run: RunContext, payload: unknown): ReadInboxRequest {
  const caller = callerOf(payload, 'readInbox');
  const request = parseControl(ReadInboxSchema, caller.request, 'readInbox');
  const attempt = run.leases.get(request.key);
  if (run.graph.indexOf(request.key) === undefined)
    throw new TeamControlError('not_found', `readInbox: no task "${request.key}"`);
  if (!attempt || attempt.fencingToken !== request.fencingToken) {
    throw new TeamControlError(
      'stale_attempt',
      `readInbox: "${request.key}" has no live attempt with fencing token ` +
        `${request.fencingToken}${attempt ? ` (the live one is ${attempt.fencingToken})` : ''}`,
    );
  }
  checkTaskClaim(run.plan, caller, 'readInbox');
  return request;
}

export function readInbox(run: RunContext, payload: unknown, now: number): ReadInboxAnswer {
  const request = validateReadInbox(run, payload);
  run.clock = now;
  const attempt = run.leases.get(request.key)!;
  const messages = run.mailbox.deliver(request.key, attempt.holder, request.peek === true);
  run.touch();
  return { messages };
}

/**
 * The `::teamrun-message::` lines of the attempt that settled its task, sent as that task;
 * one that cannot be sent is recorded as `control:rejected` with its code.
 */
export function sendFromOutcome(run: RunContext, key: string, outcome: AttemptOutcome, now: number): void {
  const messages = 'messages' in outcome && Array.isArray(outcome.messages) ? outcome.messages : [];
  for (const raw of messages.slice(0, MAILBOX_LIMITS.perAttempt)) {
    const { to, subject, body } = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    try {
      if (typeof to !== 'string' || (subject !== undefined && typeof subject !== 'string')) {
        throw new TeamControlError(
          'TEAM_MAILBOX_MESSAGE_INVALID',
          'sendMessage: a ::teamrun-message:: line needs "to" (a string), "body" and an optional string "subject"',
        );
      }
      run.mailbox.send({ from: key, to, subject: subject?.slice(0, MAILBOX_LIMITS.subjectChars), body }, now);
    } catch (err) {
      if (!(err instanceof TeamControlError)) throw err;
      run.events.record('control:rejected', now, {
        message: 'sendMessage',
        key,
        reason: err.code,
        detail: err.message.slice(0, 300),
      });
    }
  }
}

/** Idle hooks to start now (`hooks.teammateIdle`), with the executor to run. */
export function drainIdleHooks(run: RunContext): Array<IdleHookRequest & { executor: ExecutorSpec }> {
  const executor = run.plan.hooks?.teammateIdle?.executor;
  const hooks = run.members.drainHooks();
  return executor ? hooks.map((hook) => ({ ...hook, executor })) : [];
}

/** A hook's end, on the record; it never touches a task. */
export function hookEnded(
  run: RunContext,
  hook: IdleHookRequest,
  outcome: { ok: boolean; error?: string },
  now: number,
): void {
  run.events.record(outcome.ok ? 'hook:completed' : 'hook:failed', now, {
    hook: 'teammateIdle',
    holder: hook.member.holder,
    seq: hook.seq,
    ...(outcome.error ? { error: outcome.error.slice(0, 300) } : {}),
  });
  run.touch();
}
