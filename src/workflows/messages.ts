import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AbortRequest, AbortVerdict, AdjudicateRequest, InterruptRequest, InterruptVerdict } from '../team/control';
import type { MailMessage, MessagesQuery, ReadInboxRequest, SendMessageRequest } from '../team/mailbox';
import type { MemberRecord } from '../team/members';
import type { AddTasksRequestInput } from '../plan/schema';
import type { TasksQuery, TeamRun } from '../team/run';
import type { TaskView } from '../team/views';

/** The public names of CONTRACT.md, defined once for the workflow and every client. */
export const WORKFLOW_TYPE = 'teamRun';
export const ACTIVITY_TYPE = 'runTask';

export const statusQuery = defineQuery<ReturnType<TeamRun['status']>>('status');
export const tasksQuery = defineQuery<TaskView[], [TasksQuery?]>('tasks');
export const activeClaimsQuery = defineQuery<ReturnType<TeamRun['activeClaims']>>('activeClaims');
export const adjudicationsQuery = defineQuery<ReturnType<TeamRun['adjudicationsView']>>('adjudications');
export const budgetQuery = defineQuery<ReturnType<TeamRun['budgetView']>>('budget');
export const eventsQuery = defineQuery<ReturnType<TeamRun['eventsView']>, [{ after?: number; limit?: number }?]>('events');

export const membersQuery = defineQuery<MemberRecord[]>('members');
export const messagesQuery = defineQuery<{ messages: MailMessage[]; nextId: number }, [MessagesQuery?]>('messages');

export const sendMessageUpdate = defineUpdate<{ ok: true; id: number }, [SendMessageRequest]>('sendMessage');
export const readInboxUpdate = defineUpdate<{ messages: MailMessage[] }, [ReadInboxRequest]>('readInbox');

export const interruptTaskSignal = defineSignal<[InterruptRequest]>('interruptTask');
export const abortRunSignal = defineSignal<[AbortRequest?]>('abortRun');

export const interruptTaskUpdate = defineUpdate<InterruptVerdict, [InterruptRequest]>('interruptTask');
// The argument is required in the type (the client's typed overloads refuse an optional one); a
// payload-less request from the `temporal` CLI still reaches the handler, which takes none as `{}`.
export const abortRunUpdate = defineUpdate<AbortVerdict, [AbortRequest]>('abortRun');
export const adjudicateUpdate = defineUpdate<ReturnType<TeamRun['adjudicate']>, [AdjudicateRequest]>('adjudicate');
/** Adds tasks to the running graph: `{ tasks, parent?, fencingToken?, requestId, actor? }` -> `{ ok, added, idempotent? }`. */
export const addTasksUpdate = defineUpdate<AddTasksVerdict, [AddTasksRequestInput]>('addTasks');

export interface AddTasksVerdict {
  ok: true;
  added: string[];
  idempotent?: true;
}

export type RunResult = ReturnType<TeamRun['finish']>;
export type RunStatusView = ReturnType<TeamRun['status']>;
export type BudgetView = ReturnType<TeamRun['budgetView']>;
export type ActiveClaim = ReturnType<TeamRun['activeClaims']>[number];
