import type { QueryDefinition, SignalDefinition, UpdateDefinition } from '@temporalio/common';
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
  BindCaseRequest,
  BindCaseVerdict,
  BudgetView,
  EventsPage,
  EventsQuery,
  ExtendReservationRequest,
  ExtendReservationVerdict,
  InterruptRequest,
  InterruptVerdict,
  LinkRunRequest,
  LinkRunVerdict,
  MemberRecord,
  MessagesPage,
  MessagesQuery,
  ReadInboxAnswer,
  ReadInboxRequest,
  ReopenTaskRequest,
  ReopenTaskVerdict,
  RunResult,
  SendMessageRequest,
  SendMessageVerdict,
  StatusView,
  SteerTaskRequest,
  SteerTaskVerdict,
  TaskActivityType,
  TasksQuery,
  TaskView,
  TightenBudgetRequest,
  TightenBudgetVerdict,
  WithIsoTimes,
  WorkflowType,
} from '../contract';

/**
 * The public names of CONTRACT.md, defined once for the workflow and every client, each typed by
 * the contract's named shapes (src/contract): the workflow's handlers must return them.
 */
export const WORKFLOW_TYPE: WorkflowType = 'teamRun';
export const ACTIVITY_TYPE: TaskActivityType = 'runTask';

/** A query of the run: its definition (name on the wire, argument and answer types) and what the Web UI says of it. */
export interface QueryMessage<Ret, Args extends unknown[]> {
  readonly definition: QueryDefinition<Ret, Args>;
  readonly description: string;
}

export interface SignalMessage<Args extends unknown[]> {
  readonly definition: SignalDefinition<Args>;
  readonly description: string;
}

/** An update takes one request; `omitted` is the request sent when a caller gives none (abortRun's `{}`). */
export interface UpdateMessage<Ret, Request, Omitted extends Request | undefined = Request | undefined> {
  readonly definition: UpdateDefinition<Ret, [Request]>;
  readonly description: string;
  readonly omitted: Omitted;
}

export type TeamRunMessage =
  QueryMessage<unknown, unknown[]> | SignalMessage<unknown[]> | UpdateMessage<unknown, unknown>;

function query<Ret, Args extends unknown[] = []>(name: string, description: string): QueryMessage<Ret, Args> {
  return { definition: defineQuery<Ret, Args>(name), description };
}

function signal<Args extends unknown[]>(name: string, description: string): SignalMessage<Args> {
  return { definition: defineSignal<Args>(name), description };
}

function update<Ret, Request>(name: string, description: string): UpdateMessage<Ret, Request, undefined>;
function update<Ret, Request>(
  name: string,
  description: string,
  omitted: Request,
): UpdateMessage<Ret, Request, Request>;
function update<Ret, Request>(name: string, description: string, omitted?: Request): UpdateMessage<Ret, Request> {
  // The request is required in the definition's type (the client's typed overloads refuse an optional one); a
  // payload-less request from the `temporal` CLI still reaches the handler, which takes none as `{}`.
  return { definition: defineUpdate<Ret, [Request]>(name), description, omitted };
}

/**
 * Every message a team run answers, declared once: the key is the handle's method (src/client/handle.ts), the
 * definition holds the name on the wire and the types, the description is what the Web UI lists. The workflow
 * registers a handler for each (handlers.ts, in this order), the handle gets a method for each, the CLI calls
 * those methods. Queries' answers carry an ISO twin beside each timestamp (`startedAtIso`), except `budget`,
 * `members` and `messages`.
 */
export const TEAM_RUN_MESSAGES = {
  status: query<WithIsoTimes<StatusView>>('status', 'Progress, budget and pending adjudications'),
  tasks: query<WithIsoTimes<TaskView>[], [TasksQuery?]>(
    'tasks',
    'Tasks, paged: { status?, offset?, limit? } (default limit 1000, at most 2000)',
  ),
  activeClaims: query<WithIsoTimes<ActiveClaim>[]>(
    'activeClaims',
    'Attempts holding a lease now, with the fencing token to interrupt them',
  ),
  adjudications: query<WithIsoTimes<AdjudicationRecord>[]>(
    'adjudications',
    'Adjudication records, pending (decision null) and decided',
  ),
  budget: query<BudgetView>('budget', 'Limits, used, reserved and remaining budget'),
  events: query<WithIsoTimes<EventsPage>, [EventsQuery?]>(
    'events',
    'Run events after a sequence number: { after?, limit? }',
  ),
  members: query<MemberRecord[]>(
    'members',
    'One row per teammate slot: { holder, state: idle|running|shutdown, currentTask, completed, failed, lastError, ' +
      'since }',
  ),
  messages: query<MessagesPage, [MessagesQuery?]>(
    'messages',
    'Mailbox messages held: { to?, after?, limit? } (at most 100); nextId continues',
  ),
  /** Sends a mailbox message (update `sendMessage`); a refusal rejects with its code. */
  sendMessage: update<SendMessageVerdict, SendMessageRequest>(
    'sendMessage',
    'Send a mailbox message: { from, to: task key | teammate-<n> | coordinator | "*", subject?, body, ' +
      "fencingToken? (a task sending), actor?, attempt? (its worker's proof) }",
  ),
  /** Reads a running task's inbox (update `readInbox`), advancing its cursor unless `peek`. */
  readInbox: update<ReadInboxAnswer, ReadInboxRequest>(
    'readInbox',
    "Read a running task's inbox: { key, fencingToken, peek?, attempt? } (advances its cursor unless peek)",
  ),
  /** Human takeover, fire and forget (signal `interruptTask`): a refusal is only a `control:rejected` event. */
  signalInterrupt: signal<[InterruptRequest]>(
    'interruptTask',
    'Take over a running task: { key, fencingToken, requestId?, actor?, reason?, evidenceDigest? }',
  ),
  /** Coordinator abort, fire and forget (signal `abortRun`). */
  signalAbort: signal<[AbortRequest?]>(
    'abortRun',
    'Abort the run: { reason?, requestId?, actor?, requireAdjudication? }',
  ),
  /** Human takeover of the attempt holding `fencingToken` (update `interruptTask`). */
  interrupt: update<InterruptVerdict, InterruptRequest>(
    'interruptTask',
    'Take over a running task and get the verdict: { key, fencingToken, requestId?, actor?, reason? }',
  ),
  /** Coordinator abort (update `abortRun`). */
  abort: update<AbortVerdict, AbortRequest>(
    'abortRun',
    'Abort the run and get the number of attempts stopped: { reason?, requestId?, actor? }',
    {},
  ),
  /** Decides a task in adjudication (update `adjudicate`); a refused decision rejects with the reason. */
  adjudicate: update<AdjudicateVerdict, AdjudicateRequest>(
    'adjudicate',
    'Decide a task awaiting adjudication: { key, decision: retry|accept|reject, decisionId, actor?, result?, ' +
      'caseId? }; answers the decision chain link',
  ),
  /** Binds a pending adjudication to an outside case, once (update `bindCase`); another case refuses. */
  bindCase: update<BindCaseVerdict, BindCaseRequest>(
    'bindCase',
    'Bind the pending adjudication of a task to an outside case (a ticket), once: { key, caseId, actor? }',
  ),
  /** Sends a settled task back to adjudication (update `reopenTask`); a refusal rejects with its code. */
  reopenTask: update<ReopenTaskVerdict, ReopenTaskRequest>(
    'reopenTask',
    'Send a succeeded, failed or skipped task back to adjudication: { key, reason, requestId, actor? }; answers ' +
      'its dependents that already ran',
  ),
  /** Adds tasks to the running graph (update `addTasks`); a refusal rejects with its code and path. */
  addTasks: update<AddTasksVerdict, AddTasksRequestInput>(
    'addTasks',
    'Add tasks to the running graph: { tasks: [TaskSpec...], parent?, fencingToken?, requestId, actor?, attempt? }',
  ),
  /** A running attempt asks for more budget (update `extendReservation`); a refusal rejects with the budget reason. */
  extendReservation: update<ExtendReservationVerdict, ExtendReservationRequest>(
    'extendReservation',
    "A running attempt asks for more budget: { key, fencingToken, tokens?, usd?, attempt? (its worker's proof) }; " +
      'answers what the attempt holds now',
  ),
  /** A running attempt's worker links a run it started for the attempt (update `linkRun`): its end aborts that run. */
  linkRun: update<LinkRunVerdict, LinkRunRequest>(
    'linkRun',
    "Link a run a running attempt started to it: { key, fencingToken, runId, actor?, attempt (its worker's " +
      "proof) }; the attempt's end aborts that run",
  ),
  /** Guidance for a running agent before its next model call (update `steerTask`); a refusal rejects with its code. */
  steer: update<SteerTaskVerdict, SteerTaskRequest>(
    'steerTask',
    'Steer a running agent: { key, text (at most 8 KiB), fencingToken?, requestId?, actor? }; answers the ' +
      'model call (turn) it joins',
  ),
  /** Lowers the run's limits while it runs (update `tightenBudget`); a loosening is refused `loosening_refused`. */
  tightenBudget: update<TightenBudgetVerdict, TightenBudgetRequest>(
    'tightenBudget',
    'Lower the budget while the run runs: { maxTasks?, maxTokens?, maxUsd?, maxWallMs?, requestId?, actor? }; a ' +
      'limit at or below what is used stops the run at once',
  ),
} as const satisfies Record<string, TeamRunMessage>;

export type TeamRunMessages = typeof TEAM_RUN_MESSAGES;

// Each definition under the name code has always imported it by (`messages.statusQuery`).
export const statusQuery = TEAM_RUN_MESSAGES.status.definition;
export const tasksQuery = TEAM_RUN_MESSAGES.tasks.definition;
export const activeClaimsQuery = TEAM_RUN_MESSAGES.activeClaims.definition;
export const adjudicationsQuery = TEAM_RUN_MESSAGES.adjudications.definition;
export const budgetQuery = TEAM_RUN_MESSAGES.budget.definition;
export const eventsQuery = TEAM_RUN_MESSAGES.events.definition;
export const membersQuery = TEAM_RUN_MESSAGES.members.definition;
export const messagesQuery = TEAM_RUN_MESSAGES.messages.definition;
export const sendMessageUpdate = TEAM_RUN_MESSAGES.sendMessage.definition;
export const readInboxUpdate = TEAM_RUN_MESSAGES.readInbox.definition;
export const interruptTaskSignal = TEAM_RUN_MESSAGES.signalInterrupt.definition;
export const abortRunSignal = TEAM_RUN_MESSAGES.signalAbort.definition;
export const interruptTaskUpdate = TEAM_RUN_MESSAGES.interrupt.definition;
export const abortRunUpdate = TEAM_RUN_MESSAGES.abort.definition;
export const adjudicateUpdate = TEAM_RUN_MESSAGES.adjudicate.definition;
export const bindCaseUpdate = TEAM_RUN_MESSAGES.bindCase.definition;
export const addTasksUpdate = TEAM_RUN_MESSAGES.addTasks.definition;
export const reopenTaskUpdate = TEAM_RUN_MESSAGES.reopenTask.definition;
export const extendReservationUpdate = TEAM_RUN_MESSAGES.extendReservation.definition;
export const steerTaskUpdate = TEAM_RUN_MESSAGES.steer.definition;
export const tightenBudgetUpdate = TEAM_RUN_MESSAGES.tightenBudget.definition;

/** Older names of contract types, kept for code that imports them from here (`messages.RunResult`). */
export type { ActiveClaim, AddTasksVerdict, BudgetView, RunResult, StatusView as RunStatusView };
