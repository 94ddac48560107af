import type { Client, WorkflowHandle, WorkflowUpdateOptions } from '@temporalio/client';
import type {
  AbortRequest,
  AbortVerdict,
  AddTasksRequestInput,
  AddTasksVerdict,
  AdjudicateRequest,
  AdjudicateVerdict,
  AdjudicationRecord,
  EventsPage,
  InterruptRequest,
  InterruptVerdict,
  TasksQuery,
  TaskView,
} from '../contract';
import type { teamRun } from '../workflows/team-run';
import {
  TEAM_RUN_MESSAGES,
  type QueryMessage,
  type SignalMessage,
  type TeamRunMessage,
  type TeamRunMessages,
  type UpdateMessage,
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

/** A message of the table as a method: a query or an update answers, a signal resolves once the server has it. */
type MethodOf<M> =
  M extends QueryMessage<infer Ret, infer Args>
    ? (...args: Args) => Promise<Ret>
    : M extends SignalMessage<infer Args>
      ? (...args: Args) => Promise<void>
      : M extends UpdateMessage<infer Ret, infer Request>
        ? undefined extends M['omitted']
          ? (request: Request) => Promise<Ret>
          : (request?: Request) => Promise<Ret>
        : never;

/**
 * Every message of the run (src/workflows/messages.ts) as a method of the same name, typed by its
 * definition: `status()`, `interrupt(request)`, `sendMessage(request)`, `signalAbort(request?)`, ...
 */
export type TeamRunControls = { [K in keyof TeamRunMessages]: MethodOf<TeamRunMessages[K]> };

/**
 * A handle on one team run: Temporal's workflow handle (`result()`, `describe()`, `cancel()`, ...) and the controls.
 * Its updates (`executeUpdate`, `startUpdate` and the controls) are sent again when refused at a handover
 * (sdk/update-retry.ts).
 */
export type TeamRunHandle = WorkflowHandle<typeof teamRun> & TeamRunControls;

/** Adds the controls to a workflow handle of a `teamRun` workflow. */
export function withControls<H extends WorkflowHandle<typeof teamRun>>(handle: H): H & TeamRunControls {
  retryingUpdates(handle);
  const table = Object.entries(TEAM_RUN_MESSAGES) as Array<[keyof TeamRunMessages, TeamRunMessage]>;
  const controls = Object.fromEntries(table.map(([method, message]) => [method, methodOf(handle, message)]));
  return Object.assign(handle, controls as TeamRunControls);
}

/** One message's method, sent through the handle (whose updates retry a refusal at a handover). */
function methodOf(handle: WorkflowHandle, message: TeamRunMessage): (...args: unknown[]) => Promise<unknown> {
  const { definition } = message;
  if (definition.type === 'query') return (...args) => handle.query(definition, ...args);
  if (definition.type === 'signal') return (...args) => handle.signal(definition, ...args);
  const { omitted } = message as UpdateMessage<unknown, unknown>;
  return (request = omitted) => handle.executeUpdate(definition, { args: [request] });
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
