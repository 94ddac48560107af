import type { Client, WorkflowHandle } from '@temporalio/client';
import type { AbortRequest, AbortVerdict, AddTasksRequestInput, AddTasksVerdict, AdjudicateRequest, AdjudicateVerdict, AdjudicationRecord, EventsPage, InterruptRequest, InterruptVerdict, TasksQuery, TaskView } from '../contract';
import type { teamRun } from '../workflows/team-run';
import { type QueryMessage, type SignalMessage, type TeamRunMessages, type UpdateMessage } from '../workflows/messages';
export type { AbortRequest, AbortVerdict, AdjudicateRequest, AdjudicateVerdict, AddTasksRequestInput, AddTasksVerdict, InterruptRequest, InterruptVerdict, TasksQuery, TaskView, };
/** The `adjudications` query's answer (older name). */
export type AdjudicationsView = AdjudicationRecord[];
/** The `events` query's answer (older name). */
export type EventsView = EventsPage;
/** A message of the table as a method: a query or an update answers, a signal resolves once the server has it. */
type MethodOf<M> = M extends QueryMessage<infer Ret, infer Args> ? (...args: Args) => Promise<Ret> : M extends SignalMessage<infer Args> ? (...args: Args) => Promise<void> : M extends UpdateMessage<infer Ret, infer Request> ? undefined extends M['omitted'] ? (request: Request) => Promise<Ret> : (request?: Request) => Promise<Ret> : never;
/**
 * Every message of the run (src/workflows/messages.ts) as a method of the same name, typed by its
 * definition: `status()`, `interrupt(request)`, `sendMessage(request)`, `signalAbort(request?)`, ...
 */
export type TeamRunControls = {
    [K in keyof TeamRunMessages]: MethodOf<TeamRunMessages[K]>;
};
/**
 * A handle on one team run: Temporal's workflow handle (`result()`, `describe()`, `cancel()`, ...) and the controls.
 * Its updates (`executeUpdate`, `startUpdate` and the controls) are sent again when refused at a handover
 * (sdk/update-retry.ts).
 */
export type TeamRunHandle = WorkflowHandle<typeof teamRun> & TeamRunControls;
/** Adds the controls to a workflow handle of a `teamRun` workflow. */
export declare function withControls<H extends WorkflowHandle<typeof teamRun>>(handle: H): H & TeamRunControls;
/** The handle of an existing run, by workflow id. */
export declare function teamRunHandle(client: Client, workflowId: string): TeamRunHandle;
