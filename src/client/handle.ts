import type { Client, WorkflowHandle, WorkflowUpdateOptions } from '@temporalio/client';
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
  StatusView,
  TasksQuery,
  TaskView,
  WithIsoTimes,
} from '../contract';
import type { teamRun } from '../workflows/team-run';
import {
  abortRunUpdate,
  addTasksUpdate,
  activeClaimsQuery,
  adjudicateUpdate,
  adjudicationsQuery,
  budgetQuery,
  eventsQuery,
  statusQuery,
  tasksQuery,
  interruptTaskUpdate,
} from '../workflows/messages';
import { retryUpdate } from '../sdk/update-retry';

export type {
  AbortRequest,
  AbortVerdict,
  AdjudicateRequest,
  AdjudicateVerdict,
  AddTasksRequestInput,
  AddTasksVerdict,
  InterruptRequest,
  InterruptVerdict,
  TasksQuery,
  TaskView,
};
/** The `adjudications` query's answer (older name). */
export type AdjudicationsView = AdjudicationRecord[];
/** The `events` query's answer (older name). */
export type EventsView = EventsPage;

/** The contract's updates and queries as methods, each typed by its message definition. */
export interface TeamRunControls {
  /** Human takeover of the attempt holding `fencingToken` (update `interruptTask`). */
  interrupt(request: InterruptRequest): Promise<InterruptVerdict>;
  /** Coordinator abort (update `abortRun`). */
  abort(request?: AbortRequest): Promise<AbortVerdict>;
  /** Decides a task in adjudication (update `adjudicate`); a refused decision rejects with the reason. */
  adjudicate(request: AdjudicateRequest): Promise<AdjudicateVerdict>;
  /** Adds tasks to the running graph (update `addTasks`); a refusal rejects with its code and path. */
  addTasks(request: AddTasksRequestInput): Promise<AddTasksVerdict>;
  /** Queries: answers carry an ISO twin beside each timestamp (`startedAtIso`), except `budget`. */
  status(): Promise<WithIsoTimes<StatusView>>;
  tasks(query?: TasksQuery): Promise<WithIsoTimes<TaskView>[]>;
  activeClaims(): Promise<WithIsoTimes<ActiveClaim>[]>;
  adjudications(): Promise<WithIsoTimes<AdjudicationRecord>[]>;
  budget(): Promise<BudgetView>;
  events(query?: EventsQuery): Promise<WithIsoTimes<EventsPage>>;
}

/**
 * A handle on one team run: Temporal's workflow handle (`result()`, `describe()`, `cancel()`, ...) and the controls.
 * Its updates (`executeUpdate`, `startUpdate` and the controls) are sent again when refused at a handover
 * (sdk/update-retry.ts).
 */
export type TeamRunHandle = WorkflowHandle<typeof teamRun> & TeamRunControls;

/** Adds the controls to a workflow handle of a `teamRun` workflow. */
export function withControls<H extends WorkflowHandle<typeof teamRun>>(handle: H): H & TeamRunControls {
  retryingUpdates(handle);
  const controls: TeamRunControls = {
    interrupt: (request) => handle.executeUpdate(interruptTaskUpdate, { args: [request] }),
    abort: (request = {}) => handle.executeUpdate(abortRunUpdate, { args: [request] }),
    adjudicate: (request) => handle.executeUpdate(adjudicateUpdate, { args: [request] }),
    addTasks: (request) => handle.executeUpdate(addTasksUpdate, { args: [request] }),
    status: () => handle.query(statusQuery),
    tasks: (query) => handle.query(tasksQuery, query),
    activeClaims: () => handle.query(activeClaimsQuery),
    adjudications: () => handle.query(adjudicationsQuery),
    budget: () => handle.query(budgetQuery),
    events: (query) => handle.query(eventsQuery, query),
  };
  return Object.assign(handle, controls);
}

type UpdateOptions = WorkflowUpdateOptions & { args?: unknown[] };

/** Makes the handle's own `executeUpdate` and `startUpdate` retry an update refused at a handover. */
function retryingUpdates(handle: WorkflowHandle): void {
  const execute = handle.executeUpdate.bind(handle) as (def: unknown, options?: UpdateOptions) => Promise<unknown>;
  const start = handle.startUpdate.bind(handle) as (def: unknown, options: UpdateOptions) => Promise<unknown>;
  // A caller's own update id is kept; without one, every try sends the one retryUpdate chose.
  Object.assign(handle, {
    executeUpdate: (def: unknown, options?: UpdateOptions) =>
      retryUpdate((updateId) => execute(def, { ...options, updateId }), options?.updateId),
    startUpdate: (def: unknown, options: UpdateOptions) =>
      retryUpdate((updateId) => start(def, { ...options, updateId }), options.updateId),
  });
}

/** The handle of an existing run, by workflow id. */
export function teamRunHandle(client: Client, workflowId: string): TeamRunHandle {
  return withControls(client.workflow.getHandle<typeof teamRun>(workflowId));
}
