import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  AbortRequest,
  AbortVerdict,
  ActiveClaim,
  AddTasksRequestInput,
  AddTasksVerdict,
  AdjudicateRequest,
  AdjudicateVerdict,
  AdjudicationRecord,
  BudgetView,
  EventsPage,
  EventsQuery,
  InterruptRequest,
  InterruptVerdict,
  MemberRecord,
  MessagesPage,
  MessagesQuery,
  ReadInboxAnswer,
  ReadInboxRequest,
  RunResult,
  SendMessageRequest,
  SendMessageVerdict,
  StatusView,
  TaskActivityType,
  TasksQuery,
  TaskView,
  WithIsoTimes,
  WorkflowType,
} from '../contract';

/**
 * The public names of CONTRACT.md, defined once for the workflow and every client, each typed by
 * the contract's named shapes (src/contract): the workflow's handlers must return them.
 */
export const WORKFLOW_TYPE: WorkflowType = 'teamRun';
export const ACTIVITY_TYPE: TaskActivityType = 'runTask';

export const statusQuery = defineQuery<WithIsoTimes<StatusView>>('status');
export const tasksQuery = defineQuery<WithIsoTimes<TaskView>[], [TasksQuery?]>('tasks');
export const activeClaimsQuery = defineQuery<WithIsoTimes<ActiveClaim>[]>('activeClaims');
export const adjudicationsQuery = defineQuery<WithIsoTimes<AdjudicationRecord>[]>('adjudications');
export const budgetQuery = defineQuery<BudgetView>('budget');
export const eventsQuery = defineQuery<WithIsoTimes<EventsPage>, [EventsQuery?]>('events');

export const membersQuery = defineQuery<MemberRecord[]>('members');
export const messagesQuery = defineQuery<MessagesPage, [MessagesQuery?]>('messages');

export const sendMessageUpdate = defineUpdate<SendMessageVerdict, [SendMessageRequest]>('sendMessage');
export const readInboxUpdate = defineUpdate<ReadInboxAnswer, [ReadInboxRequest]>('readInbox');

export const interruptTaskSignal = defineSignal<[InterruptRequest]>('interruptTask');
export const abortRunSignal = defineSignal<[AbortRequest?]>('abortRun');

export const interruptTaskUpdate = defineUpdate<InterruptVerdict, [InterruptRequest]>('interruptTask');
// The argument is required in the type (the client's typed overloads refuse an optional one); a
// payload-less request from the `temporal` CLI still reaches the handler, which takes none as `{}`.
export const abortRunUpdate = defineUpdate<AbortVerdict, [AbortRequest]>('abortRun');
export const adjudicateUpdate = defineUpdate<AdjudicateVerdict, [AdjudicateRequest]>('adjudicate');
/**
 * Adds tasks to the running graph: `{ tasks, parent?, fencingToken?, requestId, actor? }` -> `{ ok, added, idempotent?
 * }`.
 */
export const addTasksUpdate = defineUpdate<AddTasksVerdict, [AddTasksRequestInput]>('addTasks');

/** Older names of contract types, kept for code that imports them from here (`messages.RunResult`). */
export type { ActiveClaim, AddTasksVerdict, BudgetView, RunResult, StatusView as RunStatusView };
