/**
 * Messages between the run's members: who may send as whom (a task's attempt with its live fencing
 * token and its worker's proof, the coordinator, an operator), reading a running task's inbox,
 * the `::teamrun-message::` lines of a settling attempt, and the teammateIdle hooks. The mailbox
 * itself (capacity, cursors) is mailbox.ts's, the member records members.ts's.
 */
import type { ReadInboxAnswer, SendMessageVerdict } from '../contract';
import type { ExecutorSpec } from '../plan/schema';
import type { RunContext } from './context';
import { type ReadInboxRequest, type SendMessageRequest } from './mailbox';
import type { IdleHookRequest } from './members';
import type { AttemptOutcome } from './types';
/**
 * Every check of a `sendMessage` request, for the update's validator: a send refused here never reaches history, so
 * a sender retrying a full mailbox or a finished task costs the run nothing. Throws `TeamControlError`.
 */
export declare function validateSendMessage(run: RunContext, payload: unknown): SendMessageRequest;
export declare function sendMessage(run: RunContext, payload: unknown, now: number): SendMessageVerdict;
/** `readInbox`: the live attempt of `key` reads what waits for it. */
export declare function validateReadInbox(run: RunContext, payload: unknown): ReadInboxRequest;
export declare function readInbox(run: RunContext, payload: unknown, now: number): ReadInboxAnswer;
/**
 * The `::teamrun-message::` lines of the attempt that settled its task, sent as that task;
 * one that cannot be sent is recorded as `control:rejected` with its code.
 */
export declare function sendFromOutcome(run: RunContext, key: string, outcome: AttemptOutcome, now: number): void;
/** Idle hooks to start now (`hooks.teammateIdle`), with the executor to run. */
export declare function drainIdleHooks(run: RunContext): Array<IdleHookRequest & {
    executor: ExecutorSpec;
}>;
/** A hook's end, on the record; it never touches a task. */
export declare function hookEnded(run: RunContext, hook: IdleHookRequest, outcome: {
    ok: boolean;
    error?: string;
}, now: number): void;
